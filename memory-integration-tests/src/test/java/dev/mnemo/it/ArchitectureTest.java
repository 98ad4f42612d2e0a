package dev.mnemo.it;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.codeUnits;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.fields;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaCodeUnit;
import com.tngtech.archunit.core.domain.JavaField;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.domain.JavaType;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.jar.JarFile;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The house rules of ARCHITECTURE §1, checked on the compiled classes of every module: internal
 * packages stay private to memory-core, no third-party storage, git, JSON or JDBC type leaks into a
 * public signature, one root package per jar, and every jar names its automatic module.
 */
class ArchitectureTest {

    /** Packages whose public types and members are Mnemo's public surface. */
    private static final String[] PUBLIC_PACKAGES = {
        "dev.mnemo", "dev.mnemo.spi", "dev.mnemo.llm", "dev.mnemo.store.sqlite", "dev.mnemo.workspace.git",
        "dev.mnemo.llm.openai", "dev.mnemo.langchain4j", "dev.mnemo.springai", "dev.mnemo.spring.boot",
        "dev.mnemo.testkit", "dev.mnemo.testkit.contract", "dev.mnemo.eval", "dev.mnemo.console",
        "dev.mnemo.opentelemetry"
    };

    /** Types that must never appear in a public signature. */
    private static final String[] FORBIDDEN_PREFIXES = {
        "org.sqlite.", "org.flywaydb.", "org.eclipse.jgit.", "com.fasterxml.jackson.", "java.sql.", "javax.sql."
    };

    /** Module jar name prefix → its root package (ARCHITECTURE §1). */
    private static final Map<String, String> MODULE_ROOTS = Map.ofEntries(
            Map.entry("memory-llm-spi", "dev.mnemo.llm"),
            Map.entry("memory-core", "dev.mnemo"),
            Map.entry("memory-store-sqlite", "dev.mnemo.store.sqlite"),
            Map.entry("memory-workspace-git", "dev.mnemo.workspace.git"),
            Map.entry("memory-llm-openai", "dev.mnemo.llm.openai"),
            Map.entry("memory-testkit", "dev.mnemo.testkit"),
            Map.entry("memory-eval", "dev.mnemo.eval"),
            Map.entry("memory-console", "dev.mnemo.console"),
            Map.entry("memory-cli", "dev.mnemo.cli"),
            Map.entry("memory-langchain4j", "dev.mnemo.langchain4j"),
            Map.entry("memory-postgres", "dev.mnemo.postgres"),
            Map.entry("memory-spring-ai", "dev.mnemo.springai"),
            Map.entry("memory-spring-boot-autoconfigure", "dev.mnemo.spring.boot"),
            Map.entry("memory-logback", "dev.mnemo.logback"),
            Map.entry("memory-opentelemetry", "dev.mnemo.opentelemetry"),
            Map.entry("examples", "dev.mnemo.examples"));

    /**
     * Modules of the build with main sources that these rules do not read, each with the reason; every
     * other module with main sources must be in {@link #MODULE_ROOTS}.
     */
    private static final Map<String, String> MODULES_NOT_CHECKED = Map.of(
            "examples-spring", "a Spring Boot application: its jars would put Spring on this class path",
            "memory-benchmarks", "built only with the bench profile, never by `mvn verify`");

    private static JavaClasses classes;

    @BeforeAll
    static void importMainClasses() {
        classes = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .withImportOption(location -> !location.contains("-tests.jar"))
                .importPackages("dev.mnemo");
        assertThat(classes.stream().map(JavaClass::getName))
                .as("the importer must see every module, or the rules below prove nothing")
                .contains("dev.mnemo.MemoryEngine", "dev.mnemo.llm.LanguageModel",
                        "dev.mnemo.internal.engine.EngineBuilder", "dev.mnemo.springai.MnemoAdvisor",
                        "dev.mnemo.spring.boot.MnemoAutoConfiguration", "dev.mnemo.testkit.ScriptedLanguageModel",
                        "dev.mnemo.testkit.contract.MemoryStoreContract", "dev.mnemo.eval.MemoryEval");
    }

    @Test
    void noModuleButCoreUsesInternalPackages() {
        noClasses().that().resideOutsideOfPackages("dev.mnemo.internal..")
                .and(outsideCore())
                .should().dependOnClassesThat().resideInAPackage("dev.mnemo.internal..")
                .check(classes);
    }

    /**
     * memory-core's internal packages follow the pipeline and depend on each other one way only
     * (e.g. {@code internal.read} names the tools, so {@code internal.tools} must not reach back).
     */
    @Test
    void memoryCoreInternalPackagesAreFreeOfCycles() {
        slices().matching("dev.mnemo.internal.(*)..")
                .should().beFreeOfCycles()
                .check(classes);
    }

    /**
     * The same rule on memory-core's sources, from their imports: a constant such as a tool name is
     * inlined by the compiler and leaves no trace in the class files, so only the sources show that
     * {@code internal.read} once imported {@code internal.tools} while {@code internal.tools}
     * imported {@code internal.read}.
     */
    @Test
    void memoryCoreInternalPackagesImportEachOtherWithoutCycles() throws IOException {
        Path internal = memoryCoreSources().resolve("dev/mnemo/internal");
        Map<String, Set<String>> imports = new TreeMap<>();
        Pattern importLine = Pattern.compile("^import (?:static )?dev\\.mnemo\\.internal\\.([a-z]+)\\.",
                Pattern.MULTILINE);
        try (Stream<Path> files = Files.walk(internal)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
                String pkg = internal.relativize(file).getName(0).toString();
                Matcher m = importLine.matcher(Files.readString(file));
                while (m.find()) {
                    if (!m.group(1).equals(pkg)) {
                        imports.computeIfAbsent(pkg, k -> new TreeSet<>()).add(m.group(1));
                    }
                }
            }
        }
        assertThat(imports).as("the importer must see memory-core's packages").containsKey("engine");
        assertThat(cycleIn(imports)).as("import cycle among memory-core's internal packages").isEmpty();
    }

    /** A cycle in the graph as {@code a -> b -> a}, or empty. */
    private static Optional<String> cycleIn(Map<String, Set<String>> graph) {
        Map<String, Integer> state = new HashMap<>(); // 1: on the current path, 2: done
        Deque<String> path = new ArrayDeque<>();
        for (String start : graph.keySet()) {
            Optional<String> cycle = visit(start, graph, state, path);
            if (cycle.isPresent()) {
                return cycle;
            }
        }
        return Optional.empty();
    }

    private static Optional<String> visit(String node, Map<String, Set<String>> graph, Map<String, Integer> state,
            Deque<String> path) {
        Integer seen = state.get(node);
        if (seen != null) {
            if (seen == 2) {
                return Optional.empty();
            }
            List<String> onPath = new ArrayList<>(path);
            Collections.reverse(onPath);
            return Optional.of(String.join(" -> ", onPath.subList(onPath.indexOf(node), onPath.size())) + " -> " + node);
        }
        state.put(node, 1);
        path.push(node);
        for (String next : graph.getOrDefault(node, Set.of())) {
            Optional<String> cycle = visit(next, graph, state, path);
            if (cycle.isPresent()) {
                return cycle;
            }
        }
        path.pop();
        state.put(node, 2);
        return Optional.empty();
    }

    private static Path memoryCoreSources() {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            Path candidate = dir.resolve("memory-core/src/main/java");
            if (Files.isDirectory(candidate)) {
                return candidate;
            }
        }
        throw new IllegalStateException("memory-core/src/main/java not found above " + Path.of("").toAbsolutePath());
    }

    /** memory-core's API, SPI and internals as three slices: the SPI never reaches into internals. */
    @Test
    void memoryCoreSpiDoesNotDependOnInternals() {
        noClasses().that().resideInAPackage("dev.mnemo.spi")
                .should().dependOnClassesThat().resideInAPackage("dev.mnemo.internal..")
                .check(classes);
    }

    @Test
    void langChain4jTypesStayInItsAdapterAndTheExamples() {
        noClasses().that().resideOutsideOfPackages("dev.mnemo.langchain4j..", "dev.mnemo.examples..")
                .should().dependOnClassesThat().resideInAPackage("dev.langchain4j..")
                .check(classes);
    }

    @Test
    void publicSignaturesExposeNoStorageGitJsonOrJdbcTypes() {
        codeUnits().that().arePublic().or().areProtected()
                .and().areDeclaredInClassesThat().arePublic()
                .and().areDeclaredInClassesThat().resideInAnyPackage(PUBLIC_PACKAGES)
                .should(new ArchCondition<JavaCodeUnit>("expose no forbidden type") {
                    @Override
                    public void check(JavaCodeUnit unit, ConditionEvents events) {
                        Set<JavaClass> involved = new LinkedHashSet<>(unit.getReturnType().getAllInvolvedRawTypes());
                        for (JavaType parameter : unit.getParameterTypes()) {
                            involved.addAll(parameter.getAllInvolvedRawTypes());
                        }
                        unit.getThrowsClause().getTypes().forEach(involved::add);
                        report(unit.getFullName(), involved, events, unit);
                    }
                })
                .allowEmptyShould(false)
                .check(classes);
        fields().that().arePublic()
                .and().areDeclaredInClassesThat().resideInAnyPackage(PUBLIC_PACKAGES)
                .should(new ArchCondition<JavaField>("expose no forbidden type") {
                    @Override
                    public void check(JavaField field, ConditionEvents events) {
                        report(field.getFullName(), field.getType().getAllInvolvedRawTypes(), events, field);
                    }
                })
                .allowEmptyShould(true)
                .check(classes);
    }

    @Test
    void publicClassesOfPublicPackagesExtendNoForbiddenType() {
        for (JavaClass type : classes) {
            if (!type.getModifiers().contains(JavaModifier.PUBLIC) || !isPublicPackage(type.getPackageName())) {
                continue;
            }
            Set<JavaClass> supertypes = new HashSet<>(type.getAllRawInterfaces());
            supertypes.addAll(type.getAllRawSuperclasses());
            for (JavaClass supertype : supertypes) {
                assertThat(isForbidden(supertype.getName()))
                        .as("%s extends or implements %s", type.getName(), supertype.getName())
                        .isFalse();
            }
        }
    }

    /**
     * One root package per module, no package in two modules, and every jar named after its root.
     * Under {@code mvn verify} the modules are on the class path as jars and their manifests are
     * read; under {@code mvn test} (or an IDE) they are class folders, and the {@code module.name}
     * of each module's pom, which the jar plugin writes as {@code Automatic-Module-Name}, stands
     * in for the manifest. Either way every module must be there: none is skipped.
     */
    @Test
    void everyJarNamesItsAutomaticModuleAndHoldsOnlyItsRootPackage() throws IOException {
        Map<Path, Set<String>> packagesByRoot = new TreeMap<>();
        for (JavaClass type : classes) {
            Path root = classPathRoot(type);
            packagesByRoot.computeIfAbsent(root, r -> new TreeSet<>()).add(type.getPackageName());
        }
        Map<String, String> owner = new HashMap<>();
        Map<String, Path> rootOfModule = new TreeMap<>();
        for (var entry : packagesByRoot.entrySet()) {
            Path root = entry.getKey();
            String module = moduleOf(root);
            String rootPackage = MODULE_ROOTS.get(module);
            assertThat(rootPackage).as("%s holds Mnemo classes %s but is no module that ARCHITECTURE §1 lists",
                    root, entry.getValue()).isNotNull();
            Path previousRoot = rootOfModule.put(module, root);
            assertThat(previousRoot).as("module %s is on the class path twice", module).isNull();
            assertThat(automaticModuleName(root))
                    .as("Automatic-Module-Name of %s (%s)", module, root)
                    .isEqualTo(rootPackage);
            for (String pkg : entry.getValue()) {
                assertThat(pkg.equals(rootPackage) || pkg.startsWith(rootPackage + "."))
                        .as("package %s in %s must sit under %s", pkg, module, rootPackage)
                        .isTrue();
                String previous = owner.put(pkg, module);
                assertThat(previous).as("package %s appears in %s and %s", pkg, previous, module).isNull();
            }
        }
        assertThat(rootOfModule.keySet())
                .as("every module of ARCHITECTURE §1 must be on memory-integration-tests' class path (as jars under"
                        + " `mvn verify`, as class folders under `mvn test`), or this rule proves nothing for it;"
                        + " found %s", rootOfModule)
                .containsAll(MODULE_ROOTS.keySet());
    }

    /**
     * A module added to the build is checked by these rules, or named in {@link #MODULES_NOT_CHECKED}
     * with a reason: a new module cannot slip past them unlisted.
     */
    @Test
    void everyModuleOfTheBuildWithMainSources_isCheckedOrSaysWhyNot() throws IOException {
        Path root = memoryCoreSources().getParent().getParent().getParent().getParent();
        String pom = Files.readString(root.resolve("pom.xml"));
        Matcher module = Pattern.compile("<module>([^<]+)</module>").matcher(pom);
        Set<String> withSources = new TreeSet<>();
        while (module.find()) {
            if (Files.isDirectory(root.resolve(module.group(1)).resolve("src/main/java"))) {
                withSources.add(module.group(1));
            }
        }
        assertThat(withSources).as("the build's modules with main sources").contains("memory-core", "memory-logback");

        Set<String> unlisted = new TreeSet<>(withSources);
        unlisted.removeAll(MODULE_ROOTS.keySet());
        unlisted.removeAll(MODULES_NOT_CHECKED.keySet());
        assertThat(unlisted).as("modules the architecture rules neither read (MODULE_ROOTS, and a dependency of"
                + " memory-integration-tests) nor exclude with a reason (MODULES_NOT_CHECKED)").isEmpty();
    }

    /** The jar or class folder a class was loaded from. */
    private static Path classPathRoot(JavaClass type) {
        URI uri = type.getSource().orElseThrow(() -> new AssertionError("no class file for " + type.getName()))
                .getUri();
        if (uri.getScheme().equals("jar")) {
            String location = uri.getRawSchemeSpecificPart();
            return Path.of(URI.create(location.substring(0, location.indexOf("!/"))));
        }
        Path classFile = Path.of(uri);
        int depth = type.getPackageName().split("\\.").length;
        Path root = classFile.getParent();
        for (int i = 0; i < depth; i++) {
            root = root.getParent();
        }
        return root;
    }

    /** {@code memory-core} for {@code memory-core-0.1.0-SNAPSHOT.jar} or {@code memory-core/target/classes}. */
    private static String moduleOf(Path root) throws IOException {
        String name = root.getFileName().toString();
        if (Files.isRegularFile(root)) {
            Matcher jar = Pattern.compile("(.+?)-\\d.*\\.jar").matcher(name);
            assertThat(jar.matches()).as("unexpected Mnemo jar %s", root).isTrue();
            return jar.group(1);
        }
        Path pom = moduleDirectory(root).resolve("pom.xml");
        String project = Files.readString(pom).replaceFirst("(?s)<parent>.*?</parent>", "");
        Matcher artifactId = Pattern.compile("<artifactId>([^<]+)</artifactId>").matcher(project);
        assertThat(artifactId.find()).as("artifactId in %s", pom).isTrue();
        return artifactId.group(1).strip();
    }

    /**
     * A jar's {@code Automatic-Module-Name}; for a class folder, its module's {@code module.name}
     * (else the parent pom's), from which the jar plugin writes it.
     */
    private static String automaticModuleName(Path root) throws IOException {
        if (Files.isRegularFile(root)) {
            try (JarFile jar = new JarFile(root.toFile())) {
                return jar.getManifest() == null ? null
                        : jar.getManifest().getMainAttributes().getValue("Automatic-Module-Name");
            }
        }
        Path module = moduleDirectory(root);
        for (Path pom : List.of(module.resolve("pom.xml"), module.getParent().resolve("pom.xml"))) {
            Matcher name = Pattern.compile("<module\\.name>([^<]+)</module\\.name>").matcher(Files.readString(pom));
            if (name.find()) {
                return name.group(1).strip();
            }
        }
        return null;
    }

    /** {@code <module>} for the class folder {@code <module>/target/classes}. */
    private static Path moduleDirectory(Path classFolder) {
        Path target = classFolder.getParent();
        assertThat(target != null && target.getFileName().toString().equals("target")
                && Files.isRegularFile(target.getParent().resolve("pom.xml")))
                .as("class folder %s is not a module's target/classes", classFolder)
                .isTrue();
        return target.getParent();
    }

    private static void report(String what, Set<JavaClass> involved, ConditionEvents events, Object source) {
        for (JavaClass type : involved) {
            if (isForbidden(type.getName())) {
                events.add(SimpleConditionEvent.violated(source, what + " exposes " + type.getName()));
            }
        }
    }

    private static boolean isForbidden(String typeName) {
        return Stream.of(FORBIDDEN_PREFIXES).anyMatch(typeName::startsWith);
    }

    private static boolean isPublicPackage(String pkg) {
        return List.of(PUBLIC_PACKAGES).contains(pkg);
    }

    /** Classes that belong to a module other than memory-core. */
    private static DescribedPredicate<JavaClass> outsideCore() {
        return DescribedPredicate.describe("are outside memory-core", type -> MODULE_ROOTS.entrySet().stream()
                .filter(e -> !e.getKey().equals("memory-core"))
                .anyMatch(e -> type.getPackageName().equals(e.getValue())
                        || type.getPackageName().startsWith(e.getValue() + ".")));
    }
}
