package io.chiplet.topology;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * Reads the small text files of sysfs and procfs relative to a filesystem root, turning every failure into a
 * {@link TopologyException} that names the file relative to that root. A missing file is not an error here:
 * {@link #read} answers empty and the caller decides whether the fact was optional.
 *
 * <p>One discovery opens hundreds of files, so every read goes into one buffer kept for the life of this object:
 * an instance serves one discovery at a time and is not safe for concurrent use.
 */
final class SysfsFiles
{
    /** One page: a sysfs attribute never holds more, so a single read fills it; procfs tables grow the buffer. */
    private static final int INITIAL_BUFFER_BYTES = 4096;

    /** sysfs device attributes, which the kernel hands over whole in the first read. */
    private static final String DEVICE_ATTRIBUTES = "sys/devices/";

    private final Path root;
    private ByteBuffer buffer = ByteBuffer.allocate(INITIAL_BUFFER_BYTES);

    SysfsFiles(Path root)
    {
        this.root = requireNonNull(root, "root is null");
    }

    Path root()
    {
        return root;
    }

    Path resolve(String relative)
    {
        return root.resolve(relative);
    }

    boolean exists(String relative)
    {
        return Files.exists(root.resolve(relative));
    }

    /**
     * The file's text, or empty when it does not exist.
     *
     * @throws TopologyException when it exists but cannot be read (permissions, a directory, not text)
     */
    Optional<String> read(String relative)
    {
        try {
            return Optional.of(readSmallFile(root.resolve(relative), relative.startsWith(DEVICE_ATTRIBUTES)));
        }
        catch (NoSuchFileException e) {
            return Optional.empty();
        }
        catch (AccessDeniedException e) {
            throw new TopologyException(relative + ": permission denied; expected a readable file");
        }
        catch (CharacterCodingException e) {
            throw new TopologyException(relative + ": expected text but found bytes that are not UTF-8");
        }
        catch (IOException e) {
            throw new TopologyException(relative + ": could not be read (" + describe(e) + ")", e);
        }
    }

    /**
     * Reads a whole small file into the reused buffer. On this path the system calls are the cost (open, read, close
     * take microseconds in a VM, the Java around them well under one), so it asks for no size and, for a device
     * attribute, skips the read that would only report end-of-file: the kernel writes a sysfs attribute, newline
     * included, in the first read, and a regular file (a snapshot) comes up short only at its end. procfs and cgroup
     * tables can come up short at a line break mid-file (seq_file hands out a page at a time), so they are read until
     * end-of-file. Plain ASCII, which is all sysfs writes, is decoded directly; anything else goes through a strict
     * UTF-8 decoder so bad bytes are still reported.
     */
    private String readSmallFile(Path path, boolean deviceAttribute)
            throws IOException
    {
        try (FileChannel channel = FileChannel.open(path, StandardOpenOption.READ)) {
            ByteBuffer buffer = this.buffer.clear();
            int read;
            while ((read = channel.read(buffer)) >= 0) {
                if (!buffer.hasRemaining()) {
                    buffer = ByteBuffer.allocate(buffer.capacity() * 2).put(buffer.flip());
                    this.buffer = buffer;
                }
                else if (deviceAttribute && read > 0 && buffer.get(buffer.position() - 1) == '\n') {
                    break;
                }
            }
            byte[] bytes = buffer.array();
            int length = buffer.position();
            for (int i = 0; i < length; i++) {
                if (bytes[i] < 0) {
                    return StandardCharsets.UTF_8.newDecoder().decode(ByteBuffer.wrap(bytes, 0, length)).toString();
                }
            }
            return new String(bytes, 0, length, StandardCharsets.US_ASCII);
        }
    }

    /** The file's text; its absence is an error saying what the file should have held. */
    String readRequired(String relative, String expected)
    {
        return read(relative).orElseThrow(() -> new TopologyException(relative + ": missing; expected " + expected));
    }

    Optional<CpuSet> readList(String relative)
    {
        return read(relative).map(text -> parseList(relative, text));
    }

    Optional<Integer> readInt(String relative)
    {
        return read(relative).map(text -> parseInt(relative, text));
    }

    static CpuSet parseList(String relative, String text)
    {
        try {
            return CpuSet.parseList(text);
        }
        catch (IllegalArgumentException e) {
            throw new TopologyException(relative + ": " + e.getMessage());
        }
    }

    static CpuSet parseMask(String relative, String text)
    {
        try {
            return CpuSet.parseMask(text);
        }
        catch (IllegalArgumentException e) {
            throw new TopologyException(relative + ": " + e.getMessage());
        }
    }

    /** A decimal integer, possibly negative (sysfs writes -1 for "no such id"), surrounded by whitespace. */
    static int parseInt(String relative, String text)
    {
        long value = parseLong(relative, text);
        if (value < Integer.MIN_VALUE || value > Integer.MAX_VALUE) {
            throw new TopologyException(relative + ": expected an integer but found \"" + text.strip() + "\"");
        }
        return (int) value;
    }

    static long parseLong(String relative, String text)
    {
        String s = text.strip();
        int start = s.startsWith("-") ? 1 : 0;
        if (s.length() == start || s.length() > 18) {
            throw new TopologyException(relative + ": expected an integer but found \"" + s + "\"");
        }
        long value = 0;
        for (int i = start; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < '0' || c > '9') {
                throw new TopologyException(relative + ": expected an integer but found \"" + s + "\"");
            }
            value = value * 10 + (c - '0');
        }
        return start == 1 ? -value : value;
    }

    private static String describe(IOException e)
    {
        String message = e.getMessage();
        String reason = e instanceof FileSystemException fse && fse.getReason() != null ? fse.getReason() : message;
        return reason == null ? e.getClass().getSimpleName() : reason;
    }
}
