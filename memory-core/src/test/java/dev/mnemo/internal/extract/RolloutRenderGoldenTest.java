package dev.mnemo.internal.extract;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mnemo.internal.redact.DefaultSecretRedactor;
import dev.mnemo.internal.rollout.Fixtures;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The five real sessions render to exactly what they rendered to before the reader stopped handing
 * every line to Jackson (commit f09cbba, where each line was tokenized by Jackson and each rendered
 * payload built by it): the SHA-256 of the text and every count, at a budget that keeps everything
 * and at one that cuts. (The text is redacted: a deliberate change to the redaction rules changes
 * these digests too; recompute them then.)
 */
class RolloutRenderGoldenTest {

    /** Session id, budget, SHA-256 of the text, original bytes, truncated, items kept, dropped, malformed lines. */
    private static final List<String> EXPECTED = List.of(
            "01997e76-d124-7592-9cac-2ec05abbca08 600000 3ce9a71e173caafe1d071e079807558da662d8d36ae398baa5fd473a209ed356 322609 false 270 125 0",
            "01997e76-d124-7592-9cac-2ec05abbca08 20000 67aeadced4cb8f840db83c6d3f3bf283e4cbfab53b8218a98a3ca9701e397c62 322609 true 25 370 0",
            "01997ea4-a70d-7da3-8c20-c736db82a7c5 600000 e24f46ba53a3bcb03949a5d3a7b234373e25bf9e171959c784d6801c22634494 44226 false 37 17 0",
            "01997ea4-a70d-7da3-8c20-c736db82a7c5 20000 04c82780c7bb878816f1f90f8e6baffe1e1892b885d1904ff273b4bd8b3353d8 44226 true 37 17 0",
            "0199812e-64f0-7f73-91fc-095dda01c36e 600000 b331b61d9b154fc4d06c269822671f260dccf97edd80f8f137feca2016a74581 132695 false 119 58 0",
            "0199812e-64f0-7f73-91fc-095dda01c36e 20000 4c845ab9fa827003c7f9543a65d751a6bd2dee7ecb125c7d2071efc4ada32ead 132695 true 50 127 0",
            "01998190-fba6-7f40-9309-dc4e48c5844a 600000 98d985cb8e229fc01b9adf92724c6e0060552abf4f10ab28acc9afe867995ed0 253871 false 171 85 0",
            "01998190-fba6-7f40-9309-dc4e48c5844a 20000 5a7f68899c2e8303605034d88c7fb884b80853bede37034f10e258138a5b1d01 253871 true 54 202 0",
            "019982b8-3422-79e0-8b3b-05abaf4f3c3e 600000 c3a983cc7056e97d99196c975bbfebf556abe3670957b787d4a12cab2d061918 86129 false 71 33 0",
            "019982b8-3422-79e0-8b3b-05abaf4f3c3e 20000 0be3e1ced318d77480bb6069c3672dfa497645e62f7cf8c5f18aa6c16cce831c 86129 true 51 53 0");

    @Test
    void render_ofEveryFullSession_isByteForByteWhatItWas() throws NoSuchAlgorithmException {
        RolloutRenderer renderer = new RolloutRenderer();
        DefaultSecretRedactor redactor = new DefaultSecretRedactor();
        List<String> actual = new ArrayList<>();
        for (Path session : Fixtures.fullSessions()) {
            String name = session.getFileName().toString();
            String id = name.substring("rollout-2025-09-24T19-22-20-".length(), name.length() - ".jsonl".length());
            for (long budget : new long[] {600_000, 20_000}) {
                RenderedRollout r = renderer.render(session, redactor, budget);
                byte[] digest = MessageDigest.getInstance("SHA-256").digest(r.text().getBytes(StandardCharsets.UTF_8));
                actual.add(String.join(" ", id, Long.toString(budget), HexFormat.of().formatHex(digest),
                        Long.toString(r.originalBytes()), Boolean.toString(r.truncated()), Integer.toString(r.itemsKept()),
                        Integer.toString(r.itemsDropped()), Long.toString(r.malformedLines())));
            }
        }
        assertThat(actual).containsExactlyElementsOf(EXPECTED);
    }
}
