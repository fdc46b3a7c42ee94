package io.threadlab.experiment.analyse;

import io.quarkus.qute.Engine;
import io.quarkus.qute.EvalContext;
import io.quarkus.qute.ReflectionValueResolver;
import io.quarkus.qute.TemplateLocator;
import io.quarkus.qute.UserTagSectionHelper;
import io.quarkus.qute.ValueResolver;

import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.CompletionStage;
import java.util.function.BiFunction;

/**
 * analysis.md, rendered from the very records written to analysis.json, so the two cannot disagree. The layout is
 * the template's (analysis.md, and tags/sites.md for a table of wait sites, beside this class); the template has a
 * few helpers for numbers: {@code fmt('%.1f')} formats (a number the analysis does not have, null or NaN, is "-"),
 * {@code times(n)} and {@code over(n)} scale, {@code percentOf(total)} is a share in percent (0 of nothing), and a
 * thread group's key ({@code worker}) has its {@code groupLabel} ("worker pool").
 */
final class AnalysisMarkdown {

    private static final String DIR = "io/threadlab/experiment/analyse/";

    private static final Engine ENGINE = Engine.builder().addDefaults()
            .addValueResolver(new ReflectionValueResolver())
            .addValueResolver(ValueResolver.builder()
                    .appliesTo(c -> c.getName().equals("fmt") && c.getParams().size() == 1
                            && (c.getBase() == null || c.getBase() instanceof Number))
                    .resolveAsync(c -> withParameter(c, (n, pattern) -> format((Number) n, (String) pattern))).build())
            .addValueResolver(arithmetic("times", (n, factor) -> n.doubleValue() * factor.doubleValue()))
            .addValueResolver(arithmetic("over", (n, divisor) -> n.doubleValue() / divisor.doubleValue()))
            .addValueResolver(arithmetic("percentOf", (n, total) -> total.doubleValue() == 0 ? 0.0
                    : 100 * n.doubleValue() / total.doubleValue()))
            .addValueResolver(ValueResolver.builder().applyToBaseClass(String.class).applyToName("groupLabel")
                    .resolveSync(c -> ThreadKind.valueOf(((String) c.getBase()).toUpperCase(Locale.ROOT)).label())
                    .build())
            .addLocator(AnalysisMarkdown::locate)
            .addSectionHelper(new UserTagSectionHelper.Factory("sites", "tags/sites.md"))
            .build();

    private AnalysisMarkdown() {
    }

    static String render(AnalysisFile analysis) {
        return ENGINE.getTemplate("analysis.md").data("analysis", analysis).render();
    }

    private static String format(Number n, String pattern) {
        return n == null || (n instanceof Double d && d.isNaN()) ? "-" : String.format(Locale.ROOT, pattern, n);
    }

    private static ValueResolver arithmetic(String name, BiFunction<Number, Number, Double> operation) {
        return ValueResolver.builder().applyToBaseClass(Number.class).applyToName(name).applyToParameters(1)
                .resolveAsync(c -> withParameter(c, (n, other) -> operation.apply((Number) n, (Number) other)))
                .build();
    }

    private static CompletionStage<Object> withParameter(EvalContext c, BiFunction<Object, Object, Object> resolve) {
        return c.evaluate(c.getParams().getFirst()).thenApply(parameter -> resolve.apply(c.getBase(), parameter));
    }

    private static Optional<TemplateLocator.TemplateLocation> locate(String id) {
        if (AnalysisMarkdown.class.getClassLoader().getResource(DIR + id) == null) {
            return Optional.empty();
        }
        return Optional.of(new TemplateLocator.TemplateLocation() {
            @Override
            public Reader read() {
                InputStream in = AnalysisMarkdown.class.getClassLoader().getResourceAsStream(DIR + id);
                return new InputStreamReader(in, StandardCharsets.UTF_8);
            }

            @Override
            public Optional<io.quarkus.qute.Variant> getVariant() {
                return Optional.empty();
            }
        });
    }
}
