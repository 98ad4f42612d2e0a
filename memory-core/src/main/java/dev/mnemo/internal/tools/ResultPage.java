package dev.mnemo.internal.tools;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.mnemo.internal.sandbox.ToolFailure;
import java.util.Optional;

/**
 * One page of a {@value LocalMemoryTools#LIST} or {@value LocalMemoryTools#SEARCH} result:
 * {@code [start, end)} and the cursor of the next page, if any. The cursor is Codex's: the decimal
 * index of the next result, checked against the result count and refused with Codex's message when
 * it is not one.
 */
record ResultPage(int start, int end, Optional<String> nextCursor) {

    static ResultPage of(Optional<String> cursor, int total, int maxResults) {
        int start = cursor.map(c -> parseCursor(c, total)).orElse(0);
        int end = (int) Math.min((long) start + maxResults, total);
        return new ResultPage(start, end, end < total ? Optional.of(Integer.toString(end)) : Optional.empty());
    }

    private static int parseCursor(String cursor, int total) {
        String digits = cursor.startsWith("+") ? cursor.substring(1) : cursor;
        if (digits.isEmpty() || !digits.chars().allMatch(c -> c >= '0' && c <= '9')) {
            throw ToolFailure.invalidCursor(cursor, "must be a non-negative integer");
        }
        String significant = digits.replaceFirst("^0+(?=.)", "");
        if (significant.length() > 10 || Long.parseLong(significant) > total) {
            throw ToolFailure.invalidCursor(significant, "exceeds result count");
        }
        return Integer.parseInt(significant);
    }

    void writeTo(ObjectNode result) {
        ToolJson.putNullable(result, "next_cursor", nextCursor);
        result.put("truncated", nextCursor.isPresent());
    }
}
