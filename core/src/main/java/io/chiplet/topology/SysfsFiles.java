package io.chiplet.topology;

import io.chiplet.nativeio.DirectoryReader;
import io.chiplet.nativeio.NativeCallException;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

import static java.util.Objects.requireNonNull;

/**
 * Reads the small text files of sysfs and procfs relative to a filesystem root, turning every failure into a
 * {@link TopologyException} that names the file relative to that root. A missing file is not an error here:
 * {@link #read} answers empty and the caller decides whether the fact was optional.
 *
 * <p>One discovery opens hundreds of files, and per file the system calls and what java.nio does around them are
 * the whole cost. So an instance made by {@link #openNative} reads through a {@link DirectoryReader} where the JVM allows
 * native calls: {@code openat} relative to the root, or to the CPU directory for the files under it (most of them),
 * then {@code read} and {@code close}. Where it does not, and for any file the native read fails on other than by its
 * absence, java.nio reads the file into one buffer kept for the life of this object, and reports what went wrong.
 * An instance serves one discovery at a time, on one thread, and is not safe for concurrent use.
 */
final class SysfsFiles
        implements AutoCloseable
{
    /** One page: a sysfs attribute never holds more, so a single read fills it; procfs tables grow the buffer. */
    private static final int INITIAL_BUFFER_BYTES = 4096;

    /** sysfs device attributes, which the kernel hands over whole in the first read. */
    private static final String DEVICE_ATTRIBUTES = "sys/devices/";

    /** Where most files of a discovery lie: opened relative to it, they spare the kernel four steps of path walk. */
    private static final String CPU_DIRECTORY = "sys/devices/system/cpu/";

    /**
     * Most bytes read from one sysfs file. The kernel writes an attribute in one page; CPU lists of the largest
     * machines (8192 CPUs) are binary attributes of a few pages. More than this is not a sysfs file.
     */
    static final int MAX_ATTRIBUTE_BYTES = 64 << 10;

    /** Most bytes read from one procfs or cgroup table ({@code mountinfo}, {@code status}). */
    static final int MAX_TABLE_BYTES = 1 << 20;

    /** Passed as a set: the varargs form of {@code FileChannel.open} builds a new {@code HashSet} on every call. */
    private static final Set<OpenOption> READ_ONLY = Set.of(StandardOpenOption.READ);

    private final Path root;
    private final Optional<DirectoryReader> rootReader;
    private final Optional<DirectoryReader> cpuReader;
    private ByteBuffer buffer = ByteBuffer.allocate(INITIAL_BUFFER_BYTES);

    /** Reads through java.nio only, which suits a handful of files (the cgroup lookup before a pin); nothing to close. */
    SysfsFiles(Path root)
    {
        this(root, Optional.empty(), Optional.empty());
    }

    private SysfsFiles(Path root, Optional<DirectoryReader> rootReader, Optional<DirectoryReader> cpuReader)
    {
        this.root = requireNonNull(root, "root is null");
        this.rootReader = requireNonNull(rootReader, "rootReader is null");
        this.cpuReader = requireNonNull(cpuReader, "cpuReader is null");
    }

    /**
     * Reads {@code root} through java.nio, as {@link #SysfsFiles(Path)}; close it. Not through {@link #openNative}, even
     * for the live machine: a discovery runs once or twice in a JVM's life, and in a fresh JVM linking the native
     * reader's downcalls costs tens of milliseconds, against about 1.5 µs saved per file (1.3 ms for the 836 files of
     * a 256-CPU machine; docs/native.md, start-up). java.nio checks each file is a regular file before opening it:
     * a snapshot's FIFO would block the open, and a link to a device would never end.
     */
    static SysfsFiles open(Path root)
    {
        return new SysfsFiles(root);
    }

    /**
     * Reads through {@link DirectoryReader}s where native calls are allowed, whatever the root; for trusted trees only,
     * and for JVMs that discover again and again (benchmarks), where the linking is paid once.
     */
    static SysfsFiles openNative(Path root)
    {
        Optional<DirectoryReader> rootReader = DirectoryReader.open(root);
        Optional<DirectoryReader> cpuReader = rootReader.isPresent() ? DirectoryReader.open(root.resolve(CPU_DIRECTORY)) : Optional.empty();
        return new SysfsFiles(root, rootReader, cpuReader);
    }

    @Override
    public void close()
    {
        try {
            cpuReader.ifPresent(DirectoryReader::close);
        }
        finally {
            rootReader.ifPresent(DirectoryReader::close);
        }
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
     * @throws TopologyException when it exists but cannot be read (permissions, a directory, a FIFO or device, a link
     *         loop, more than {@link #MAX_ATTRIBUTE_BYTES} under {@code sys/} or {@link #MAX_TABLE_BYTES} elsewhere, not text)
     */
    Optional<String> read(String relative)
    {
        boolean attribute = relative.startsWith(DEVICE_ATTRIBUTES);
        try {
            if (rootReader.isPresent() && DirectoryReader.accepts(relative)) {
                try {
                    Optional<byte[]> bytes = readNative(relative, attribute);
                    if (bytes.isPresent()) {
                        return Optional.of(text(relative, bytes.get(), bytes.get().length));
                    }
                    return Optional.empty();
                }
                catch (NativeCallException e) {
                    // not a plain missing file: java.nio below reads it again and says what is wrong, as it always has
                }
            }
            return Optional.of(readSmallFile(relative, root.resolve(relative), attribute));
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

    private static int bound(String relative)
    {
        return relative.startsWith("sys/") && !relative.startsWith("sys/fs/") ? MAX_ATTRIBUTE_BYTES : MAX_TABLE_BYTES;
    }

    private static void checkBound(String relative, int length)
    {
        if (length > bound(relative)) {
            throw new TopologyException(relative + ": holds more than " + bound(relative) + " bytes; expected a small kernel file");
        }
    }

    private Optional<byte[]> readNative(String relative, boolean attribute)
    {
        if (cpuReader.isPresent() && relative.startsWith(CPU_DIRECTORY) && relative.length() > CPU_DIRECTORY.length()) {
            return cpuReader.get().read(relative.substring(CPU_DIRECTORY.length()), attribute);
        }
        return rootReader.get().read(relative, attribute);
    }

    /**
     * Reads a whole small file into the reused buffer, asking for no size, and for a device attribute skips the read
     * that would only report end-of-file: the kernel writes a sysfs attribute, newline included, in the first read,
     * and a regular file (a snapshot) comes up short only at its end. procfs and cgroup tables can come up short at a
     * line break mid-file (seq_file hands out a page at a time), so they are read until end-of-file.
     */
    private String readSmallFile(String relative, Path path, boolean deviceAttribute)
            throws IOException
    {
        // follows links as open would (a loop fails here, naming ELOOP); refuses what open would block on or never end
        BasicFileAttributes attributes = Files.readAttributes(path, BasicFileAttributes.class);
        if (attributes.isDirectory()) {
            throw new TopologyException(relative + ": is a directory; expected a regular file");
        }
        if (!attributes.isRegularFile()) {
            throw new TopologyException(relative + ": is not a regular file (a FIFO, device or socket); expected a regular file");
        }
        int limit = bound(relative);
        try (FileChannel channel = FileChannel.open(path, READ_ONLY)) {
            ByteBuffer buffer = this.buffer.clear();
            int read;
            while ((read = channel.read(buffer)) >= 0) {
                if (!buffer.hasRemaining()) {
                    if (buffer.capacity() > limit) {
                        checkBound(relative, buffer.capacity());
                    }
                    buffer = ByteBuffer.allocate(buffer.capacity() * 2).put(buffer.flip());
                    this.buffer = buffer;
                }
                else if (deviceAttribute && read > 0 && buffer.get(buffer.position() - 1) == '\n') {
                    break;
                }
            }
            return text(relative, buffer.array(), buffer.position());
        }
    }

    /** The first {@code length} bytes of {@code relative} as text; more than its bound, or not UTF-8, is an error naming it. */
    static String text(String relative, byte[] bytes, int length)
    {
        checkBound(relative, length);
        try {
            return decode(bytes, length);
        }
        catch (CharacterCodingException e) {
            throw new TopologyException(relative + ": expected text but found bytes that are not UTF-8");
        }
    }

    /**
     * Plain ASCII, which is all sysfs writes, is decoded directly; anything else goes through a strict UTF-8 decoder
     * so bad bytes are still reported.
     */
    private static String decode(byte[] bytes, int length)
            throws CharacterCodingException
    {
        for (int i = 0; i < length; i++) {
            if (bytes[i] < 0) {
                return StandardCharsets.UTF_8.newDecoder().decode(ByteBuffer.wrap(bytes, 0, length)).toString();
            }
        }
        return new String(bytes, 0, length, StandardCharsets.US_ASCII);
    }

    /** The file's text; its absence is an error saying what the file should have held. */
    String readRequired(String relative, String expected)
    {
        return read(relative).orElseThrow(() -> new TopologyException(relative + ": missing; expected " + expected));
    }

    /** The CPUs a list file names, from its first line. */
    Optional<CpuSet> readList(String relative)
    {
        return read(relative).map(text -> parseList(relative, text));
    }

    /**
     * The CPUs named by {@code directory + listName} ({@code 0-3,8}), else by the mask form {@code directory + maskName}
     * ({@code 0000010f}): the kernel has written both since 2.6.x but older kernels and many dumps hold only the mask,
     * and some only the list. hwloc reads whichever exists.
     */
    Optional<CpuSet> readCpus(String directory, String listName, String maskName)
    {
        Optional<CpuSet> list = readList(directory + listName);
        if (list.isPresent()) {
            return list;
        }
        String mask = directory + maskName;
        return read(mask).map(text -> parseMask(mask, text));
    }

    Optional<Integer> readInt(String relative)
    {
        return read(relative).map(text -> parseInt(relative, text));
    }

    /** The names in {@code directory}, sorted; empty when it does not exist. A kernel directory holds a bounded number. */
    List<String> entries(String directory)
    {
        Path dir = resolve(directory);
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        List<String> names = new ArrayList<>();
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir)) {
            for (Path entry : entries) {
                names.add(entry.getFileName().toString());
                if (names.size() > CpuSet.MAX_CPUS * 2) {
                    throw new TopologyException(directory + ": holds more than " + CpuSet.MAX_CPUS * 2 + " entries; expected a kernel directory");
                }
            }
        }
        catch (IOException e) {
            throw new TopologyException(directory + ": could not be listed (" + e.getMessage() + ")", e);
        }
        names.sort(null);
        return names;
    }

    /** {@code cpu12} -> 12 for prefix {@code cpu}; -1 when the name is not the prefix followed by digits only. */
    static int numberAfter(String name, String prefix)
    {
        if (!name.startsWith(prefix) || name.length() == prefix.length() || name.length() > prefix.length() + 5) {
            return -1;
        }
        int value = 0;
        for (int i = prefix.length(); i < name.length(); i++) {
            char c = name.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
            value = value * 10 + (c - '0');
        }
        return value;
    }

    static CpuSet parseList(String relative, String text)
    {
        try {
            return CpuSet.parseList(FileText.value(text));
        }
        catch (IllegalArgumentException e) {
            throw new TopologyException(relative + ": " + e.getMessage());
        }
    }

    static CpuSet parseMask(String relative, String text)
    {
        try {
            return CpuSet.parseMask(FileText.value(text));
        }
        catch (IllegalArgumentException e) {
            throw new TopologyException(relative + ": " + e.getMessage());
        }
    }

    /** A decimal integer of ASCII digits, possibly negative (sysfs writes -1 for "no such id"), surrounded by blanks. */
    static int parseInt(String relative, String text)
    {
        long value = parseLong(relative, text);
        if (value < Integer.MIN_VALUE || value > Integer.MAX_VALUE) {
            throw new TopologyException(relative + ": expected an integer but found " + FileText.quote(FileText.value(text).strip()));
        }
        return (int) value;
    }

    /** As {@link #parseInt}, at most 18 digits, so it cannot overflow. */
    static long parseLong(String relative, String text)
    {
        String s = FileText.value(text).strip();
        int start = s.startsWith("-") ? 1 : 0;
        if (s.length() == start || s.length() > 18) {
            throw new TopologyException(relative + ": expected an integer but found " + FileText.quote(s));
        }
        long value = 0;
        for (int i = start; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < '0' || c > '9') {
                throw new TopologyException(relative + ": expected an integer but found " + FileText.quote(s));
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
