package io.chiplet.spark.measure;

import io.chiplet.measure.RunRecord;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * The driver's history of measured runs, so that recurring runs add up: one file, {@value #FILE_NAME}, in the
 * history directory, one core {@link RunRecord} a line (JSON, {@value RunRecord#KIND}), every application's runs
 * in it (each record names its key). Appends take an exclusive lock on the file and write the line in one write, so
 * drivers that end at the same time do not mix their lines; a line left half-written (a driver killed mid-write) is
 * ended before the next is appended. Reading skips lines it cannot parse and counts them. Never throws for the file's
 * content; I/O errors reach the caller, which warns and goes on.
 */
public final class RunHistory
{
    public static final String FILE_NAME = "measure-history.jsonl";
    /** Only the file's last this many bytes are read: some 30 000 runs, far more than are pooled. */
    static final long MAX_READ_BYTES = 8L << 20;

    /** Two threads of one JVM may not both lock one file (the JVM refuses): they take turns here first. */
    private static final Object IN_THIS_JVM = new Object();

    private final Path file;

    private RunHistory(Path directory)
    {
        this.file = directory.resolve(FILE_NAME);
    }

    /** The directory by default: {@code $XDG_STATE_HOME/chiplet}, else {@code ~/.local/state/chiplet}. */
    public static Path defaultDirectory(Map<String, String> environment, String userHome)
    {
        String state = environment.get("XDG_STATE_HOME");
        if (state != null && !state.isBlank() && Path.of(state).isAbsolute()) {
            return Path.of(state, "chiplet");
        }
        return Path.of(userHome, ".local", "state", "chiplet");
    }

    /**
     * The history in {@code directory}, created where missing; empty where it cannot be written (the reason is in
     * {@code problem}).
     */
    public static Optional<RunHistory> open(Path directory, StringBuilder problem)
    {
        requireNonNull(directory, "directory is null");
        try {
            Files.createDirectories(directory);
            Path file = directory.resolve(FILE_NAME);
            if (!Files.isWritable(directory) || (Files.exists(file) && !Files.isWritable(file))) {
                problem.append(directory).append(" is not writable");
                return Optional.empty();
            }
            return Optional.of(new RunHistory(directory));
        }
        catch (IOException | RuntimeException e) {
            problem.append(directory).append(": ").append(e);
            return Optional.empty();
        }
    }

    public Path file()
    {
        return file;
    }

    /** Appends one run's line under the file's lock. */
    public void append(RunRecord run)
            throws IOException
    {
        byte[] line = (run.json() + "\n").getBytes(StandardCharsets.UTF_8);
        synchronized (IN_THIS_JVM) {
            appendLocked(line);
        }
    }

    private void appendLocked(byte[] line)
            throws IOException
    {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
                FileLock ignored = channel.lock()) {
            long size = channel.size();
            ByteBuffer out;
            if (size > 0) {
                ByteBuffer last = ByteBuffer.allocate(1);
                channel.read(last, size - 1);
                // A line left half-written by a driver killed mid-write: end it, so this one stays whole.
                out = last.get(0) == '\n' ? ByteBuffer.wrap(line) : ByteBuffer.allocate(line.length + 1).put((byte) '\n').put(line).flip();
            }
            else {
                out = ByteBuffer.wrap(line);
            }
            long position = size;
            while (out.hasRemaining()) {
                position += channel.write(out, position);
            }
            channel.force(false);
        }
    }

    /** The runs read, and the lines that were not runs (corrupt, half-written, of another version). */
    public record Read(List<RunRecord> runs, int skipped)
    {
        public Read
        {
            runs = List.copyOf(runs);
        }
    }

    public Read read()
            throws IOException
    {
        if (!Files.exists(file)) {
            return new Read(List.of(), 0);
        }
        synchronized (IN_THIS_JVM) {
            return readLocked();
        }
    }

    private Read readLocked()
            throws IOException
    {
        String text;
        boolean cut;
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ); FileLock ignored = channel.lock(0, Long.MAX_VALUE, true)) {
            long size = channel.size();
            long from = Math.max(0, size - MAX_READ_BYTES);
            cut = from > 0;
            ByteBuffer bytes = ByteBuffer.allocate((int) (size - from));
            while (bytes.hasRemaining() && channel.read(bytes, from + bytes.position()) >= 0) {
                // read until full
            }
            bytes.flip();
            text = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPLACE).onUnmappableCharacter(CodingErrorAction.REPLACE).decode(bytes).toString();
        }
        List<RunRecord> runs = new ArrayList<>();
        int skipped = 0;
        String[] lines = text.split("\n", -1);
        for (int i = cut ? 1 : 0; i < lines.length; i++) {
            String line = lines[i].strip();
            if (line.isEmpty()) {
                continue;
            }
            try {
                runs.add(RunRecord.parse(line, file + " line " + (i + 1)));
            }
            catch (RuntimeException e) {
                skipped++;
            }
        }
        return new Read(runs, skipped);
    }
}
