package io.threadlab.experiment;

import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.library.dependencies.SliceAssignment;
import com.tngtech.archunit.library.dependencies.SliceIdentifier;
import org.junit.jupiter.api.Test;

import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The runner's packages are its pipeline (plan, confine, start, load, record, collect, analyse, report): each may use
 * the ones it builds on, and none may reach back, so that each can be read, tested and changed on its own. A cycle
 * between two of them fails here, naming the classes that close it. Within a package, no two classes refer to each
 * other either: one of them is then the place to read first.
 */
class PackageCyclesTest {

    private static final String ROOT = "io.threadlab.experiment";

    /**
     * One slice per package under the root, its sub-packages included, as
     * {@code slices().matching("io.threadlab.experiment.(*)..")} makes them, plus the root package itself (the CLI),
     * which that pattern leaves out: a cycle through the CLI would go unseen.
     */
    private static final SliceAssignment PACKAGES = new SliceAssignment() {
        @Override
        public SliceIdentifier getIdentifierOf(JavaClass javaClass) {
            String name = javaClass.getPackageName();
            if (name.equals(ROOT)) {
                return SliceIdentifier.of("the CLI (" + ROOT + ")");
            }
            return name.startsWith(ROOT + ".")
                    ? SliceIdentifier.of(name.substring(ROOT.length() + 1).split("\\.")[0])
                    : SliceIdentifier.ignore();
        }

        @Override
        public String getDescription() {
            return ROOT + " and each package under it";
        }
    };

    /**
     * Two classes that must know each other: a builder and what it builds. A sealed type and the types it permits
     * are the other pair allowed (the type names them; each names the type it implements).
     */
    private static final Set<String> KNOWN_PAIRS = Set.of("plan.Axis ~ plan.AxisBuilder");

    private static JavaClasses runner() {
        return new ClassFileImporter().withImportOption(new ImportOption.DoNotIncludeTests()).importPackages(ROOT);
    }

    @Test
    void noTwoOfTheRunnersClassesReferToEachOther() {
        Map<String, Set<String>> uses = new TreeMap<>();
        Map<String, Set<String>> implementsFrom = new TreeMap<>();
        for (JavaClass c : runner()) {
            String from = topLevel(c);
            for (Dependency d : c.getDirectDependenciesFromSelf()) {
                String to = topLevel(d.getTargetClass());
                if (to != null && !to.equals(from)) {
                    uses.computeIfAbsent(from, k -> new TreeSet<>()).add(to);
                }
            }
            c.getRawInterfaces().stream().map(PackageCyclesTest::topLevel).filter(i -> i != null)
                    .forEach(i -> implementsFrom.computeIfAbsent(from, k -> new TreeSet<>()).add(i));
        }
        assertThat(uses).as("the runner's classes were found").hasSizeGreaterThan(100);
        Set<String> pairs = new TreeSet<>();
        uses.forEach((a, targets) -> targets.stream()
                .filter(b -> a.compareTo(b) < 0 && uses.getOrDefault(b, Set.of()).contains(a))
                .filter(b -> !implementsFrom.getOrDefault(a, Set.of()).contains(b)
                        && !implementsFrom.getOrDefault(b, Set.of()).contains(a))
                .forEach(b -> pairs.add(a + " ~ " + b)));
        assertThat(pairs).as("classes that refer to each other").isSubsetOf(KNOWN_PAIRS);
    }

    /** The top-level class a class is or is nested in, relative to the root; null outside the runner. */
    private static String topLevel(JavaClass c) {
        String name = c.getName();
        if (!name.startsWith(ROOT + ".")) {
            return null;
        }
        int nested = name.indexOf('$');
        return name.substring(ROOT.length() + 1, nested < 0 ? name.length() : nested);
    }

    @Test
    void theRunnersPackagesImportEachOtherInNoCycle() {
        JavaClasses runner = runner();
        assertThat(runner.stream().map(JavaClass::getPackageName).distinct())
                .as("the runner's packages were found (else the rule below would hold vacuously)")
                .contains(ROOT, ROOT + ".plan", ROOT + ".report");
        slices().assignedFrom(PACKAGES).should().beFreeOfCycles().check(runner);
    }
}
