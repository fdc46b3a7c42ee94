package io.threadlab.experiment.findings;

import io.quarkus.qute.Template;
import io.threadlab.experiment.report.Templates;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * {@code ./experiment findings}: docs/findings.md, its pictures and README.md's findings section, generated from the
 * runs published in {@code findings/}, never typed. The same data always makes the same files, so a test holds the
 * committed page to the committed data.
 */
public final class FindingsPage {

    /** The generated files, relative to the lab's checkout. */
    public static final Path PAGE = Path.of("docs", "findings.md");
    static final Path HEADLINE_PICTURE = Path.of("docs", "findings-headline.svg");
    static final Path STARTS_PICTURE = Path.of("docs", "findings-jvm-starts.svg");
    static final Path MAP_PICTURE = Path.of("docs", "findings-regime-map.svg");
    public static final Path README = Path.of("README.md");
    public static final Path FINDINGS = Path.of("findings");

    private static final Template PAGE_TEMPLATE = Templates.markdown(FindingsPage.class, "findings.md");

    /** Everything the page states, computed once from the published runs; the template shows it. */
    record Model(String published, List<RunsIndex.Row> runs, RegimeMapSection.Section map,
                 HeadlineSection.Section headline, OffCalibrationSection.Section offCalibration,
                 SurvivorCalls.Section survivors, ClaimsSection.Section claims, List<DatabaseSection.Run> database,
                 CollectorStates.Section collector,
                 FanOutFindings.Section fanOut, List<BurstFindings.Run> burst, List<MistakesSection.Run> mistakes,
                 PlatformsSection.Section platforms, CompilerInWarmUps.Section compiler, Pictures pictures) {
    }

    /** The pictures' links from the page, each null where there is none. */
    record Pictures(String headline, String starts, String map) {
    }

    private FindingsPage() {
    }

    /** Every generated file's text, by its path relative to the checkout. */
    public static Map<Path, String> render(Path lab) {
        List<PublishedRun> runs = PublishedRun.readAll(lab.resolve(FINDINGS));
        List<PublishedRun> defaults = only(runs, Kind.DEFAULT_RUN);
        HeadlineSection.Section headline = HeadlineSection.of(defaults);
        RegimeMapSection.Section map = RegimeMapSection.of(only(runs, Kind.REGIME_MAP)).orElse(null);
        Map<Path, String> files = new LinkedHashMap<>();
        if (!defaults.isEmpty()) {
            files.put(HEADLINE_PICTURE, HeadlinePictures.ratios(defaults));
            files.put(STARTS_PICTURE, HeadlinePictures.jvmStarts(defaults));
        }
        if (map != null) {
            files.put(MAP_PICTURE, MapPicture.svg("Which model serves the most, by delay and users (" + map.quota()
                    + " each)", map.cells()));
        }
        OffCalibrationSection.Section offCalibration = OffCalibrationSection.of(runs);
        Model model = new Model(Cite.link(String.valueOf(runs.size()), PublishedRun.FROM_DOCS), RunsIndex.of(runs), map,
                headline, offCalibration, SurvivorCalls.of(runs),
                ClaimsSection.of(runs),
                DatabaseSection.of(only(runs, Kind.DATABASE)), CollectorStates.of(only(runs, Kind.DATABASE)),
                FanOutFindings.of(only(runs, Kind.FAN_OUT)),
                BurstFindings.of(only(runs, Kind.BURST)),
                MistakesSection.of(only(runs, Kind.MISTAKES)), PlatformsSection.of(defaults),
                CompilerInWarmUps.of(runs).orElse(null), new Pictures(picture(files, HEADLINE_PICTURE),
                picture(files, STARTS_PICTURE), picture(files, MAP_PICTURE)));
        files.put(PAGE, PAGE_TEMPLATE.data("f", model).render());
        files.put(README, ReadmeSection.replace(read(lab.resolve(README)), ReadmeSection.of(headline, map,
                offCalibration)));
        return files;
    }

    /** Writes every generated file that differs from what is there; returns those written. */
    public static List<Path> write(Path lab) {
        List<Path> written = new ArrayList<>();
        render(lab).forEach((path, text) -> {
            Path file = lab.resolve(path);
            if (!text.equals(readIfAny(file))) {
                try {
                    Files.createDirectories(file.getParent() == null ? lab : file.getParent());
                    Files.writeString(file, text, StandardCharsets.UTF_8);
                } catch (IOException e) {
                    throw new UncheckedIOException("cannot write " + file + ": " + e.getMessage(), e);
                }
                written.add(path);
            }
        });
        return written;
    }

    /** The generated files that differ from what the checkout holds (none: the page is the data's). */
    public static List<Path> stale(Path lab) {
        return render(lab).entrySet().stream().filter(e -> !e.getValue().equals(readIfAny(lab.resolve(e.getKey()))))
                .map(Map.Entry::getKey).toList();
    }

    private static List<PublishedRun> only(List<PublishedRun> runs, Kind kind) {
        return runs.stream().filter(r -> r.kind() == kind).toList();
    }

    /** The picture's link from the page (beside it in docs/), or null where there is none. */
    private static String picture(Map<Path, String> files, Path picture) {
        return files.containsKey(picture) ? picture.getFileName().toString() : null;
    }

    private static String read(Path file) {
        return Objects.requireNonNull(readIfAny(file), () -> file + " is missing");
    }

    private static String readIfAny(Path file) {
        try {
            return Files.isRegularFile(file) ? Files.readString(file, StandardCharsets.UTF_8) : null;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
