package dev.mnemo.testkit.junit;

import java.io.PrintWriter;
import org.junit.platform.engine.discovery.DiscoverySelectors;
import org.junit.platform.launcher.Launcher;
import org.junit.platform.launcher.LauncherDiscoveryRequest;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;
import org.junit.platform.launcher.listeners.SummaryGeneratingListener;
import org.junit.platform.launcher.listeners.TestExecutionSummary;

/**
 * The {@code main} {@link JUnitVersionsIT} starts in a child JVM whose class path holds one JUnit
 * version: runs the test classes named in {@code args} through that version's Platform Launcher,
 * prints the versions it ran on and a summary, and exits 0 only when tests were found and none
 * failed. Uses only launcher API that JUnit 5 and 6 share.
 */
public final class PlatformRun {

    private PlatformRun() {
    }

    public static void main(String[] args) {
        LauncherDiscoveryRequestBuilder request = LauncherDiscoveryRequestBuilder.request();
        for (String className : args) {
            request.selectors(DiscoverySelectors.selectClass(className));
        }
        LauncherDiscoveryRequest discovery = request.build();
        Launcher launcher = LauncherFactory.create();
        SummaryGeneratingListener listener = new SummaryGeneratingListener();
        launcher.execute(discovery, listener);
        TestExecutionSummary summary = listener.getSummary();
        PrintWriter out = new PrintWriter(System.out, true);
        out.println("launcher " + LauncherFactory.class.getPackage().getImplementationVersion() + ", jupiter "
                + org.junit.jupiter.api.Test.class.getPackage().getImplementationVersion());
        out.println("found=" + summary.getTestsFoundCount() + " succeeded=" + summary.getTestsSucceededCount()
                + " failed=" + summary.getTestsFailedCount() + " aborted=" + summary.getTestsAbortedCount());
        summary.printFailuresTo(out, 30);
        out.flush();
        System.exit(summary.getTestsFoundCount() > 0 && summary.getTotalFailureCount() == 0 ? 0 : 1);
    }
}
