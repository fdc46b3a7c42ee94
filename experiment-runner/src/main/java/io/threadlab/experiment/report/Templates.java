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
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The report's templates, parsed by one Qute engine: the sections' fragments ({@code sections/<name>.md} and
 * {@code .html}), the html page around them, and the prose both formats say. The html escapes every value unless the
 * template says {@code .raw} (the SVGs); the markdown escapes the one character that breaks a table row, the pipe.
 * Other markdown pages of the lab (the findings page) are parsed by the same engine ({@link #markdown(Class, String)}).
 */
public final class Templates {

    private static final String MARKDOWN = "text/markdown";
    private static final Variant MARKDOWN_VARIANT = new Variant(Locale.ROOT, StandardCharsets.UTF_8, MARKDOWN);
    private static final Variant HTML_VARIANT = Variant.forContentType(Variant.TEXT_HTML);

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

    /**
     * The prose a section says in both formats, included from one file ({@code prose.txt}) by fragment. It has no
     * variant: it is plain text, which neither escaper changes.
     */
    private static final TemplateLocator PROSE = id -> "prose".equals(id) ? Optional.of(new TemplateLocator
            .TemplateLocation() {
        @Override
        public Reader read() {
            return new StringReader(Templates.read(Templates.class, "prose.txt"));
        }

        @Override
        public Optional<Variant> getVariant() {
            return Optional.empty();
        }
    }) : Optional.empty();

    /**
     * Strict: an expression that resolves to nothing (a misspelt property, one a section does not have) fails the
     * rendering instead of printing a blank; the test that renders every fragment relies on it.
     */
    private static final Engine ENGINE = Engine.builder().addDefaults()
            .addValueResolver(new ReflectionValueResolver()).addValueResolver(ValueResolvers.rawResolver())
            .addResultMapper(new HtmlEscaper(List.of(Variant.TEXT_HTML))).addResultMapper(MARKDOWN_ESCAPER)
            .addLocator(PROSE).strictRendering(true).build();
    /** Each fragment parsed once, by its path; a test's fragments are found on the same class path. */
    private static final Map<String, Template> PARSED = new ConcurrentHashMap<>();

    private Templates() {
    }

    /** A markdown template beside {@code owner}'s class file, parsed as the report's is. */
    public static Template markdown(Class<?> owner, String name) {
        return ENGINE.parse(read(owner, name), MARKDOWN_VARIANT);
    }

    /** A template beside this class by its path ("sections/checks.md", "report.html"), parsed once. */
    static Template at(String path) {
        return PARSED.computeIfAbsent(path, p -> parse(read(Templates.class, p), p));
    }

    /** Text parsed as the template at {@code path} would be: markdown or html by its extension. */
    static Template parse(String text, String path) {
        return ENGINE.parse(text, path.endsWith(".html") ? HTML_VARIANT : MARKDOWN_VARIANT, path);
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
