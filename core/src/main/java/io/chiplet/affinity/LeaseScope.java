package io.chiplet.affinity;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * Which lease directory a process really uses, and on which kernel: two processes coordinate through
 * {@link ChipletLeases} only when they run on one kernel and their lease directories are one directory. A path alone
 * does not say so: a container with a private {@code /tmp} (Spark on Kubernetes, Docker containers on YARN, a
 * service under systemd's {@code PrivateTmp}) sees its own {@code /tmp/chiplet-leases} under the same name.
 *
 * @param kernel the running kernel's boot id ({@code /proc/sys/kernel/random/boot_id}): the same in every container
 *        of a host, different on every other host and after every reboot
 * @param directory the lease directory's device and inode, {@code "<dev>:<ino>"}: equal exactly when two processes
 *        see one directory, whatever path or mount they reach it by
 * @param path the lease directory as this process names it, for messages
 */
public record LeaseScope(String kernel, String directory, Path path)
{
    private static final Path BOOT_ID = Path.of("/proc/sys/kernel/random/boot_id");

    public LeaseScope
    {
        requireNonNull(kernel, "kernel is null");
        requireNonNull(directory, "directory is null");
        requireNonNull(path, "path is null");
        if (kernel.isBlank() || directory.isBlank()) {
            throw new IllegalArgumentException("a lease scope needs a kernel and a directory identity: " + kernel + ", " + directory);
        }
    }

    /**
     * The scope of {@code directory} (an existing lease directory) on this kernel; empty where the kernel has no boot id
     * or the file system no inode numbers (not Linux): there, processes cannot be checked, only trusted.
     */
    public static Optional<LeaseScope> of(Path directory)
    {
        return of(directory, BOOT_ID);
    }

    static Optional<LeaseScope> of(Path directory, Path bootIdFile)
    {
        requireNonNull(directory, "directory is null");
        requireNonNull(bootIdFile, "bootIdFile is null");
        try {
            String kernel = Files.readString(bootIdFile).strip();
            Object device = Files.getAttribute(directory, "unix:dev");
            Object inode = Files.getAttribute(directory, "unix:ino");
            return kernel.isEmpty() ? Optional.empty() : Optional.of(new LeaseScope(kernel, device + ":" + inode, directory));
        }
        catch (IOException | UnsupportedOperationException | IllegalArgumentException | SecurityException e) {
            return Optional.empty();
        }
    }

    /** Whether a process of {@code other}'s scope sees this process's leases: same kernel, same directory. */
    public boolean sharesLeasesWith(LeaseScope other)
    {
        return kernel.equals(other.kernel) && directory.equals(other.directory);
    }
}
