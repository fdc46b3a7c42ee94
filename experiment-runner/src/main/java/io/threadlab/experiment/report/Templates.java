package io.threadlab.experiment.report;

import io.quarkus.qute.Engine;
import io.quarkus.qute.Expression;
import io.quarkus.qute.HtmlEscaper;
import io.quarkus.qute.RawString;
import io.quarkus.qute.ReflectionValueResolver;
import io.quarkus.qute.ResultMapper;
import io.quarkus.qute.Template;
import io.quarkus.qute.TemplateLocator;
import io.quarkus.qute.TemplateNode;
import io.quarkus.qute.ValueResolvers;
import io.quarkus.qute.Variant;

import java.io.IOException;
import java.io.InputStream;
import java.io.Reader;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * report.md and report.html, rendered by Qute from the one model. The html escapes every value unless the template
 * says {@code .raw} (the SVGs); the markdown escapes the one character that breaks a table row, the pipe. Other
 * markdown pages of the lab (the findings page) are parsed by the same engine ({@link #markdown(Class, String)}).
 */
public final class Templates {

    private static final String MARKDOWN = "text/markdown";

    /** A pipe inside a value would end its table cell; escaped, GitHub shows it as a pipe everywhere. */
    private static final ResultMapper MARKDOWN_ESCAPER = new ResultMapper() {
        @Override
        public boolean appliesTo(TemplateNode.Origin origin, Object result) {
            return !(result instanceof RawString) && origin.getVariant()
                    .filter(v -> MARKDOWN.equals(v.getContentType())).isPresent();
        }

        @Override
        public String map(Object result, Expression expression) {
            return result.toString().replace("|", "\\|");
        }
    };

    /** The prose both templates say, included from one file ({@code prose.txt}) by fragment. */
    private static final TemplateLocator PROSE = id -> "prose".equals(id) ? Optional.of(new TemplateLocator
            .TemplateLocation() {
        @Override
        public Reader read() {
            return new StringReader(Templates.read("prose.txt"));
        }

        @Override
        public Optional<Variant> getVariant() {
            return Optional.empty();
        }
    }) : Optional.empty();

    private static final Engine ENGINE = Engine.builder().addDefaults()
            .addValueResolver(new ReflectionValueResolver()).addValueResolver(ValueResolvers.rawResolver())
            .addResultMapper(new HtmlEscaper(List.of(Variant.TEXT_HTML))).addResultMapper(MARKDOWN_ESCAPER)
            .addLocator(PROSE).build();
    private static final Template MD = ENGINE.parse(read("report.md"),
            new Variant(Locale.ROOT, StandardCharsets.UTF_8, MARKDOWN));
    private static final Template HTML = ENGINE.parse(read("report.html"), Variant.forContentType(Variant.TEXT_HTML));

    private Templates() {
    }

    /** A markdown template beside {@code owner}'s class file, parsed as the report's is. */
    public static Template markdown(Class<?> owner, String name) {
        return ENGINE.parse(read(owner, name), new Variant(Locale.ROOT, StandardCharsets.UTF_8, MARKDOWN));
    }

    static String markdown(ReportModel model) {
        return MD.data("r", model).render();
    }

    static String html(ReportModel model) {
        return HTML.data("r", model).render();
    }

    private static String read(String name) {
        return read(Templates.class, name);
    }

    private static String read(Class<?> owner, String name) {
        try (InputStream in = owner.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException("the runner was built without its template " + name);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
