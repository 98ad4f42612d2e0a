package dev.mnemo.postgres;

import dev.mnemo.Consolidation;
import dev.mnemo.llm.TokenUsage;
import dev.mnemo.spi.ConsolidationRecord;
import dev.mnemo.spi.SelectedInput;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The {@code workspace_files}, {@code consolidations} and {@code consolidation_files} views of one
 * tenant: the baseline and the kept history, path to bytes, as {@link PostgresMemoryWorkspace}
 * reads and writes them.
 */
final class WorkspaceRows {

    /** Where the user's own files live; everything else in the workspace is generated. */
    static final String EXTENSIONS = "extensions/";

    private WorkspaceRows() {
    }

    static SortedMap<String, byte[]> files(Tx tx) throws SQLException {
        SortedMap<String, byte[]> files = new TreeMap<>();
        tx.query("files.all", row -> files.put(row.getString(1), row.getBytes(2)));
        return files;
    }

    /** Replaces every baseline file; returns the number of rows deleted. */
    static int replaceBaseline(Tx tx, SortedMap<String, byte[]> files) throws SQLException {
        int deleted = tx.update("files.deleteAll");
        insertFiles(tx, "files.insert", null, files);
        return deleted;
    }

    static void insertFiles(Tx tx, String key, Long seq, SortedMap<String, byte[]> files) throws SQLException {
        for (var file : files.entrySet()) {
            if (seq == null) {
                tx.update(key, file.getKey(), file.getValue());
            } else {
                tx.update(key, seq, file.getKey(), file.getValue());
            }
        }
    }

    static void insertEntry(Tx tx, ConsolidationRecord record, String restores, SortedMap<String, byte[]> files)
            throws SQLException {
        TokenUsage usage = record.usage();
        long seq = tx.first("history.insert", row -> row.getLong(1), record.id(), record.at().getEpochSecond(),
                record.at().getNano(), record.model(), usage.inputTokens(), usage.cachedInputTokens(),
                usage.outputTokens(), usage.reasoningTokens(),
                tx.textArray(record.selected().stream().map(SelectedInput::threadId).toList()),
                tx.connection().createArrayOf("bigint", record.selected().stream()
                        .map(s -> s.sourceUpdatedAt().getEpochSecond()).toArray()),
                restores).orElseThrow();
        insertFiles(tx, "history.insertFile", seq, files);
    }

    /** A kept consolidation and the {@code seq} its files are keyed by. */
    record Entry(long seq, ConsolidationRecord record) {
    }

    /** The kept consolidations, newest first. */
    static List<Entry> entries(Tx tx) throws SQLException {
        return tx.query("history.all", row -> new Entry(row.getLong("seq"), record(row)));
    }

    /** Where in {@code entries} the one with {@code id} is; -1 when none is. */
    static int indexOf(List<Entry> entries, String id) {
        for (int i = 0; i < entries.size(); i++) {
            if (entries.get(i).record().id().equals(id)) {
                return i;
            }
        }
        return -1;
    }

    /** The files a kept consolidation left. */
    static SortedMap<String, byte[]> entryFiles(Tx tx, long seq) throws SQLException {
        SortedMap<String, byte[]> files = new TreeMap<>();
        tx.query("history.files", row -> files.put(row.getString(1), row.getBytes(2)), seq);
        return files;
    }

    /**
     * What {@link #dropFrom} did.
     *
     * @param restored the newest remaining entry, whose files the baseline now holds; empty when none remains
     * @param baseline the new baseline
     * @param deletedRows history and baseline rows deleted
     */
    record Drop(Optional<ConsolidationRecord> restored, SortedMap<String, byte[]> baseline, int deletedRows) {
    }

    /**
     * Deletes entry {@code id} and every newer one (their files cascade) and makes the baseline the
     * newest remaining entry's files outside {@value #EXTENSIONS}, plus the current baseline's files
     * under it (the user's own: ad-hoc notes, extension instructions), which a drop keeps.
     *
     * @return empty, changing nothing, when no kept entry has that id
     */
    static Optional<Drop> dropFrom(Tx tx, String id) throws SQLException {
        List<Entry> entries = entries(tx);
        int from = indexOf(entries, id);
        if (from < 0) {
            return Optional.empty();
        }
        SortedMap<String, byte[]> baseline = new TreeMap<>(files(tx));
        baseline.keySet().removeIf(path -> !path.startsWith(EXTENSIONS));
        Optional<ConsolidationRecord> restored = Optional.empty();
        if (from + 1 < entries.size()) { // newest first: the next one is the newest that remains
            Entry remaining = entries.get(from + 1);
            restored = Optional.of(remaining.record());
            entryFiles(tx, remaining.seq()).forEach((path, content) -> {
                if (!path.startsWith(EXTENSIONS)) {
                    baseline.put(path, content);
                }
            });
        }
        int deleted = tx.update("history.deleteFrom", entries.get(from).seq()) + replaceBaseline(tx, baseline);
        return Optional.of(new Drop(restored, baseline, deleted));
    }

    static ConsolidationRecord record(ResultSet row) throws SQLException {
        String[] threads = (String[]) row.getArray("thread_ids").getArray();
        Long[] versions = (Long[]) row.getArray("source_updated_at").getArray();
        List<SelectedInput> selected = new ArrayList<>();
        for (int i = 0; i < threads.length; i++) {
            selected.add(new SelectedInput(threads[i], Instant.ofEpochSecond(versions[i])));
        }
        return new ConsolidationRecord(row.getString("id"),
                Instant.ofEpochSecond(row.getLong("at_seconds"), row.getInt("at_nanos")), selected, row.getString("model"),
                new TokenUsage(row.getLong("input_tokens"), row.getLong("cached_input_tokens"),
                        row.getLong("output_tokens"), row.getLong("reasoning_tokens")));
    }

    static Consolidation summary(ConsolidationRecord record) {
        return new Consolidation(record.id(), record.at(), record.selected().size(),
                record.selected().stream().map(SelectedInput::threadId).toList(), record.model());
    }

}
