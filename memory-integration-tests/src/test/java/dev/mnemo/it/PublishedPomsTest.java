package dev.mnemo.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;

/**
 * What a release to Maven Central relies on, read from the POMs themselves (docs/releasing.md):
 * one version for every module, the standalone BOM in step with mnemo-parent and naming every
 * published module, a name and description on each, and the unpublished modules left out of the
 * Portal bundle.
 */
class PublishedPomsTest {

    private static final Set<String> UNPUBLISHED =
            Set.of("examples", "examples-spring", "memory-benchmarks", "memory-integration-tests");

    private static Path repository;
    private static Document parent;

    @BeforeAll
    static void readParent() throws Exception {
        repository = FixturePaths.dir().getParent().getParent();
        parent = read(repository.resolve("pom.xml"));
    }

    @Test
    void everyModuleTakesItsVersionFromTheOneRevision() throws Exception {
        assertThat(child(parent.getDocumentElement(), "version")).isEqualTo("${revision}");
        for (String module : modules()) {
            Element project = read(repository.resolve(module).resolve("pom.xml")).getDocumentElement();
            Element parentRef = first(project, "parent");
            String version = parentRef == null ? child(project, "version") : child(parentRef, "version");
            assertThat(version).as("%s's version", module).isEqualTo("${revision}");
        }
    }

    @Test
    void bomRepeatsTheParentsRevisionRepositoryAndTimestamp() throws Exception {
        Element bomProperties = first(read(repository.resolve("memory-bom/pom.xml")).getDocumentElement(), "properties");
        Element parentProperties = first(parent.getDocumentElement(), "properties");
        for (String property : List.of("revision", "mnemo.repository", "project.build.outputTimestamp")) {
            assertThat(child(bomProperties, property)).as("memory-bom's %s", property)
                    .isNotBlank()
                    .isEqualTo(child(parentProperties, property));
        }
    }

    @Test
    void everyPublishedModuleHasNameDescriptionAndABomEntry() throws Exception {
        Set<String> inBom = new TreeSet<>();
        NodeList artifactIds = first(read(repository.resolve("memory-bom/pom.xml")).getDocumentElement(),
                "dependencyManagement").getElementsByTagName("artifactId");
        for (int i = 0; i < artifactIds.getLength(); i++) {
            inBom.add(artifactIds.item(i).getTextContent().strip());
        }
        Set<String> published = new TreeSet<>();
        for (String module : modules()) {
            Element project = read(repository.resolve(module).resolve("pom.xml")).getDocumentElement();
            String unpublished = child(first(project, "properties"), "mnemo.unpublished");
            assertThat("true".equals(unpublished)).as("%s sets mnemo.unpublished", module)
                    .isEqualTo(UNPUBLISHED.contains(module));
            if (UNPUBLISHED.contains(module)) {
                continue;
            }
            assertThat(child(project, "name")).as("%s's name", module).isNotBlank();
            assertThat(child(project, "description")).as("%s's description", module).isNotBlank();
            if (!module.equals("memory-bom")) {
                published.add(module);
            }
        }
        assertThat(inBom).isEqualTo(published);
    }

    @Test
    void portalBundleLeavesOutExactlyTheUnpublishedModules() throws Exception {
        Element release = null;
        NodeList profiles = parent.getElementsByTagName("profile");
        for (int i = 0; i < profiles.getLength(); i++) {
            if ("release".equals(child((Element) profiles.item(i), "id"))) {
                release = (Element) profiles.item(i);
            }
        }
        assertThat(release).as("mnemo-parent's release profile").isNotNull();
        Set<String> excluded = new TreeSet<>();
        NodeList artifacts = first(release, "excludeArtifacts").getElementsByTagName("artifact");
        for (int i = 0; i < artifacts.getLength(); i++) {
            excluded.add(artifacts.item(i).getTextContent().strip());
        }
        assertThat(excluded).isEqualTo(new TreeSet<>(UNPUBLISHED));
    }

    /** The parent's modules, the bench profile's included. */
    private static List<String> modules() {
        List<String> modules = new ArrayList<>();
        NodeList nodes = parent.getElementsByTagName("module");
        for (int i = 0; i < nodes.getLength(); i++) {
            modules.add(nodes.item(i).getTextContent().strip());
        }
        assertThat(modules).contains("memory-core", "memory-bom", "memory-benchmarks");
        return modules;
    }

    private static Document read(Path pom) throws Exception {
        assertThat(pom).isRegularFile();
        return DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(Files.newInputStream(pom));
    }

    /** The first descendant element named {@code name}, or null. */
    private static Element first(Element parent, String name) {
        NodeList nodes = parent.getElementsByTagName(name);
        return nodes.getLength() == 0 ? null : (Element) nodes.item(0);
    }

    /** The text of {@code parent}'s direct child element {@code name}, or null. */
    private static String child(Element parent, String name) {
        if (parent == null) {
            return null;
        }
        for (Node node = parent.getFirstChild(); node != null; node = node.getNextSibling()) {
            if (node instanceof Element element && element.getTagName().equals(name)) {
                return element.getTextContent().strip();
            }
        }
        return null;
    }
}
