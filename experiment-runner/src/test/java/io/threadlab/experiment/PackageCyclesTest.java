package io.threadlab.experiment;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.library.dependencies.SliceAssignment;
import com.tngtech.archunit.library.dependencies.SliceIdentifier;
import org.junit.jupiter.api.Test;

import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The runner's packages are its pipeline (plan, confine, start, load, record, collect, analyse, report): each may use
 * the ones it builds on, and none may reach back, so that each can be read, tested and changed on its own. A cycle
 * between two of them fails here, naming the classes that close it.
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

    @Test
    void theRunnersPackagesImportEachOtherInNoCycle() {
        JavaClasses runner = new ClassFileImporter().withImportOption(new ImportOption.DoNotIncludeTests())
                .importPackages(ROOT);
        assertThat(runner.stream().map(JavaClass::getPackageName).distinct())
                .as("the runner's packages were found (else the rule below would hold vacuously)")
                .contains(ROOT, ROOT + ".plan", ROOT + ".report");
        slices().assignedFrom(PACKAGES).should().beFreeOfCycles().check(runner);
    }
}
