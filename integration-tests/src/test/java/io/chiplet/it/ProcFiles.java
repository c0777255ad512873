package io.chiplet.it;

import io.chiplet.topology.CpuSet;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Stream;

/** What the kernel says about processes and chiplet leases: {@code /proc/<pid>/task/<tid>/status}, {@code /proc/locks}. */
final class ProcFiles
{
    private ProcFiles() {}

    /** {@code Cpus_allowed_list} of every thread of process {@code pid}, by tid; empty once it has ended. */
    static Map<Long, CpuSet> threadMasks(long pid)
    {
        Map<Long, CpuSet> masks = new TreeMap<>();
        try (Stream<Path> tasks = Files.list(Path.of("/proc", Long.toString(pid), "task"))) {
            for (Path task : tasks.toList()) {
                cpusAllowed(task.resolve("status")).ifPresent(mask -> masks.put(Long.parseLong(task.getFileName().toString()), mask));
            }
        }
        catch (NoSuchFileException e) {
            return Map.of();
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return masks;
    }

    /**
     * The CPU time (utime + stime of {@code /proc/<pid>/task/<tid>/stat}, in milliseconds) of the threads of process
     * {@code pid} whose name ({@code comm}, which the kernel truncates to 15 characters) starts with {@code prefix},
     * summed by name; empty once it has ended. Each thread's figure is whole clock ticks ({@link #clockTickMillis}).
     */
    static Map<String, Long> threadCpuMillis(long pid, String prefix)
    {
        Map<String, Long> byName = new TreeMap<>();
        long tick = clockTickMillis();
        try (Stream<Path> tasks = Files.list(Path.of("/proc", Long.toString(pid), "task"))) {
            for (Path task : tasks.toList()) {
                try {
                    String name = Files.readString(task.resolve("comm")).strip();
                    if (!name.startsWith(prefix)) {
                        continue;
                    }
                    String stat = Files.readString(task.resolve("stat"));
                    // After the name in parentheses (which may hold spaces): state is field 3, utime 14, stime 15.
                    String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                    byName.merge(name, (Long.parseLong(fields[11]) + Long.parseLong(fields[12])) * tick, Long::sum);
                }
                catch (NoSuchFileException e) {
                    // The thread ended while listed.
                }
            }
        }
        catch (NoSuchFileException e) {
            return Map.of();
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return byName;
    }

    /** The length of a clock tick ({@code getconf CLK_TCK}), the unit of {@code /proc}'s CPU times, in milliseconds. */
    static long clockTickMillis()
    {
        try {
            Process getconf = new ProcessBuilder("getconf", "CLK_TCK").redirectErrorStream(true).start();
            String hertz = new String(getconf.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.US_ASCII).strip();
            getconf.waitFor();
            return 1000 / Long.parseLong(hertz);
        }
        catch (IOException | NumberFormatException e) {
            throw new IllegalStateException("getconf CLK_TCK did not give the clock tick", e);
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    static String commandLine(long pid)
    {
        try {
            return Files.readString(Path.of("/proc", Long.toString(pid), "cmdline")).replace('\0', ' ');
        }
        catch (IOException e) {
            return "";
        }
    }

    /** The {@code Cpus_allowed_list} of a {@code /proc/.../status} file; empty when the thread ended while listed. */
    static Optional<CpuSet> cpusAllowed(Path status)
    {
        try {
            return Files.readAllLines(status).stream()
                    .filter(line -> line.startsWith("Cpus_allowed_list:"))
                    .map(line -> CpuSet.parseList(line.substring("Cpus_allowed_list:".length()).trim()))
                    .findFirst();
        }
        catch (IOException e) {
            // The thread ended while listed.
            return Optional.empty();
        }
    }

    /**
     * Chiplet id to the pid holding its owner slot (byte 0 of {@code chiplet-<id>.lock} in {@code leaseDir}, as core's
     * ChipletLeases takes it), from the kernel's table of record locks: what the processes hold, whatever they log.
     */
    static Map<Integer, Long> ownerSlotHolders(Path leaseDir)
    {
        Map<Long, Integer> chipletOfInode = new HashMap<>();
        try (Stream<Path> files = Files.list(leaseDir)) {
            for (Path file : files.toList()) {
                chipletOf(file).ifPresent(chiplet -> {
                    try {
                        chipletOfInode.put((Long) Files.getAttribute(file, "unix:ino"), chiplet);
                    }
                    catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                });
            }
            Map<Integer, Long> holders = new TreeMap<>();
            for (String line : Files.readAllLines(Path.of("/proc/locks"))) {
                // "1: POSIX  ADVISORY  WRITE 4242 fe:00:1234567 0 0"; blocked waiters are "1: -> POSIX ...".
                String[] fields = line.trim().split("\\s+");
                if (fields.length < 8 || !fields[1].equals("POSIX") || !fields[6].equals("0") || !fields[7].equals("0")) {
                    continue;
                }
                Integer chiplet = chipletOfInode.get(Long.parseLong(fields[5].substring(fields[5].lastIndexOf(':') + 1)));
                if (chiplet != null) {
                    holders.put(chiplet, Long.parseLong(fields[4]));
                }
            }
            return holders;
        }
        catch (NoSuchFileException e) {
            return Map.of();
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Every pid holding any record lock on a lease file of {@code leaseDir}. */
    static List<Long> leaseLockHolders(Path leaseDir)
    {
        try (Stream<Path> files = Files.list(leaseDir)) {
            List<Long> inodes = files.filter(file -> chipletOf(file).isPresent()).map(file -> {
                try {
                    return (Long) Files.getAttribute(file, "unix:ino");
                }
                catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }).toList();
            return Files.readAllLines(Path.of("/proc/locks")).stream().map(line -> line.trim().split("\\s+"))
                    .filter(fields -> fields.length >= 8 && fields[1].equals("POSIX"))
                    .filter(fields -> inodes.contains(Long.parseLong(fields[5].substring(fields[5].lastIndexOf(':') + 1))))
                    .map(fields -> Long.parseLong(fields[4])).distinct().toList();
        }
        catch (NoSuchFileException e) {
            return List.of();
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Whether chiplet {@code chiplet}'s owner slot can be taken now, probed as ChipletLeases takes it
     * ({@link FileChannel#tryLock} of byte 0, released at once). Only for moments when no JVM is leasing: a probe
     * holds the slot for an instant.
     */
    static boolean ownerSlotFree(Path leaseDir, int chiplet)
    {
        try (FileChannel channel = FileChannel.open(leaseDir.resolve("chiplet-" + chiplet + ".lock"), StandardOpenOption.READ, StandardOpenOption.WRITE);
                FileLock lock = channel.tryLock(0, 1, false)) {
            return lock != null;
        }
        catch (OverlappingFileLockException e) {
            throw new IllegalStateException("this JVM itself holds chiplet " + chiplet + "'s owner slot", e);
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static Optional<Integer> chipletOf(Path file)
    {
        String name = file.getFileName().toString();
        if (name.startsWith("chiplet-") && name.endsWith(".lock")) {
            try {
                return Optional.of(Integer.parseInt(name.substring("chiplet-".length(), name.length() - ".lock".length())));
            }
            catch (NumberFormatException e) {
                return Optional.empty();
            }
        }
        return Optional.empty();
    }
}
