package io.threadlab.experiment.findings;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The findings page is the published runs', never typed: the committed docs/findings.md, its pictures and README.md's
 * findings section are exactly what {@code ./experiment findings} makes from the committed findings/; every number on
 * the page and in that section is a link to a committed file, but the points' own coordinates (10 ms, 500 users); and
 * every number of the README's section is on the page.
 */
class FindingsPageTest {

    private static final Path LAB = Path.of("..").toAbsolutePath().normalize();
    private static final Pattern LINK = Pattern.compile("!?\\[([^\\]]*)]\\(([^)\\s]+)\\)");
    private static final Pattern CODE = Pattern.compile("`[^`]*`");
    /** Where a point is, not what was measured there: its delay, users, quota, calls, a burst's size, a JVM's setup. */
    private static final Pattern COORDINATE = Pattern.compile("\\d[\\d,.]*(?:–\\d[\\d,.]*)? ?(?:ms|users|CPU|calls?"
            + "|platform threads|requests)\\b|(?:worker max|pool size|db pool size) \\d+");
    /** A measured number; not a digit of a name ("p99", "http_504"). */
    private static final Pattern NUMBER = Pattern.compile("(?<![A-Za-z_\\d.,])(?:\\d[\\d,.]*\\d×?|\\d×?)");

    @Test
    void theCommittedPageIsWhatThePublishedRunsMake() {
        assertThat(FindingsPage.stale(LAB)).as("generated files that differ from what findings/ makes: run"
                + " ./experiment findings and commit them").isEmpty();
    }

    @Test
    void everyNumberOnThePageLinksToACommittedFile() throws IOException {
        Path page = LAB.resolve(FindingsPage.PAGE);
        assertThat(unlinkedNumbers(Files.readString(page), page.getParent())).isEmpty();
        assertThat(Files.readString(page)).contains("](../findings/"); // it does cite the published runs
    }

    @Test
    void everyNumberOfTheReadmesFindingsIsALinkAndIsOnThePage() throws IOException {
        String section = section(Files.readString(LAB.resolve(FindingsPage.README)));
        assertThat(section.lines().count()).as("the README's findings section, in lines").isLessThanOrEqualTo(20);
        assertThat(unlinkedNumbers(section, LAB)).isEmpty();
        String page = Files.readString(LAB.resolve(FindingsPage.PAGE));
        Set<String> missing = new LinkedHashSet<>();
        Matcher m = NUMBER.matcher(section.replaceAll("\\]\\([^)]*\\)", "]"));
        while (m.find()) {
            if (!page.contains(m.group())) {
                missing.add(m.group());
            }
        }
        assertThat(missing).as("numbers of README.md's findings section that are not on docs/findings.md").isEmpty();
    }

    @Test
    void theReadmeIsAFrontDoorWithoutARunDiary() throws IOException {
        List<String> readme = Files.readAllLines(LAB.resolve("README.md"));
        assertThat(readme).hasSizeLessThanOrEqualTo(250);
        Pattern dated = Pattern.compile("20\\d\\d-\\d\\d-\\d\\d");
        for (Path doc : List.of(LAB.resolve("README.md"), LAB.resolve("docs/method.md"))) {
            assertThat(Files.readAllLines(doc)).as(doc + ": a dated run belongs in findings/, not in prose")
                    .noneMatch(line -> dated.matcher(line).find());
        }
    }

    @Test
    void theCheckerCatchesANumberWithoutItsSourceAndALinkToNothing(@TempDir Path docs) throws IOException {
        Files.writeString(docs.resolve("there.csv"), "1");
        assertThat(unlinkedNumbers("| reactive | 10 ms, 500 users | [2.02×](there.csv) |", docs)).isEmpty();
        assertThat(unlinkedNumbers("| reactive | 10 ms, 500 users | 2.02× |", docs)).hasSize(1);
        assertThat(unlinkedNumbers("| at | ratio | throughput | p99 | CPU per request |", docs)).isEmpty();
        assertThat(unlinkedNumbers("| reactive | [2.02×](gone.csv) |", docs)).singleElement().asString()
                .contains("gone.csv");
    }

    @Test
    void aReadmeWithoutTheMarkersIsRefusedWithWhereTheyGo() {
        assertThatThrownBy(() -> ReadmeSection.replace("# A README\n", "section"))
                .hasMessageContaining("no findings section").hasMessageContaining(ReadmeSection.BEGIN);
    }

    /** The lines with a number that is neither in a link to an existing file nor a coordinate; and dead links. */
    static List<String> unlinkedNumbers(String markdown, Path base) {
        List<String> offending = new ArrayList<>();
        for (String line : markdown.lines().toList()) {
            Matcher link = LINK.matcher(line);
            while (link.find()) {
                String target = link.group(2).replaceAll("#.*$", "");
                if (!target.startsWith("http") && !target.isEmpty() && !Files.exists(base.resolve(target))) {
                    offending.add("a link to nothing (" + target + "): " + line);
                }
            }
            String bare = COORDINATE.matcher(CODE.matcher(LINK.matcher(line).replaceAll("")).replaceAll(""))
                    .replaceAll("");
            if (NUMBER.matcher(bare).find()) {
                offending.add(line);
            }
        }
        return offending;
    }

    private static String section(String readme) {
        int begin = readme.indexOf(ReadmeSection.BEGIN);
        int end = readme.indexOf(ReadmeSection.END);
        assertThat(begin).as("README.md's findings markers").isNotNegative();
        return readme.substring(begin + ReadmeSection.BEGIN.length(), end).strip();
    }
}
