package io.chiplet.affinity;

import io.chiplet.topology.Chiplet;
import io.chiplet.topology.Topology;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import static java.util.Objects.requireNonNull;

/**
 * Host-wide chiplet leases: several JVMs on one host (Spark executors, Trino workers) each take distinct chiplets,
 * and share the least-loaded ones only when every chiplet is taken.
 *
 * <h2>Protocol</h2>
 * Everything is a byte-range lock ({@code fcntl} record lock, through {@link FileChannel#tryLock}) in a shared
 * directory; the kernel drops a process's locks the instant it exits, however it exits, so a dead JVM never holds a
 * chiplet and there is no stale state to clean up. Nothing is ever written to the files.
 * <ul>
 *   <li>{@code chiplet-<id>.lock}, byte 0: the <em>owner</em> slot, held by the JVM that leased the chiplet
 *       exclusively.</li>
 *   <li>The same file, bytes 1..{@value #SHARER_SLOTS}: one <em>sharer</em> slot per JVM sharing the chiplet. The
 *       holder count of a chiplet is the number of its slots that cannot be locked, so it needs no counter that a
 *       dying JVM could leave wrong.</li>
 *   <li>{@code leases.guard}, byte 0: held while a JVM chooses and takes its chiplets, so two JVMs starting together
 *       see each other's choices and do not pile onto the same least-loaded chiplet.</li>
 * </ul>
 * A chiplet is free when none of its slots is held. Free chiplets go first, lowest id first, then those in the
 * package of the first one taken; when none is free, a sharer slot on the chiplet with the fewest holders.
 *
 * <h2>Every user of the host</h2>
 * Executors of different users (YARN containers, several Spark installations) must see each other's leases, so the
 * files are shared, not per user: a directory this class creates gets mode 1777 (world-writable and sticky, as
 * {@code /tmp}) and a lock file it creates gets mode 0666, set explicitly whatever the umask. A file is created under
 * a private name, made 0666, then hard-linked into place, so no other user ever opens it while it is still 0644. An
 * existing file is opened without {@code O_CREAT}: the kernel's {@code fs.protected_regular} (1 on systemd hosts)
 * refuses {@code O_CREAT} on another user's file in a sticky directory even when it is writable. Anyone who can
 * open the files can lock them, so a user of the host could hold every chiplet; leases are a courtesy between
 * cooperating jobs, not a security boundary.
 *
 * <h2>One instance per directory per JVM</h2>
 * POSIX record locks belong to the process, and closing <em>any</em> channel to a file drops all the process's
 * locks on it. So each instance keeps a single channel per file for its lifetime, and a JVM may open one instance
 * per directory at a time ({@link #ACTIVE_DIRECTORIES} enforces it).
 */
public final class ChipletLeases
        implements AutoCloseable
{
    /** Sharer slots per chiplet: how many JVMs can share one chiplet. */
    public static final int SHARER_SLOTS = 256;

    /** The registry of lease directories open in this JVM (see the class comment for why there can be only one). */
    private static final Set<Path> ACTIVE_DIRECTORIES = ConcurrentHashMap.newKeySet();

    private final Path directory;
    private final List<Chiplet> chiplets;
    // chiplet id to its package, for "then those of the first one's package"; equal keys mean the same package
    private final Map<Integer, Object> packageOf;
    private final Map<Integer, FileChannel> channels = new HashMap<>();
    private boolean closed;

    private ChipletLeases(Path directory, List<Chiplet> chiplets, Map<Integer, Object> packageOf)
    {
        this.directory = directory;
        this.chiplets = chiplets;
        this.packageOf = packageOf;
    }

    /** Mode of a lease directory this class creates: every user may create files, none may remove another's. */
    static final int DIRECTORY_MODE = 01777;
    /** Mode of a lock file this class creates: every user may open it for writing, which a write lock needs. */
    static final int FILE_MODE = 0666;

    /**
     * Opens the lease directory (creating it) for the given chiplets of {@code topology}, telling packages apart by
     * their CPUs ({@link Topology#packageOf}), so that id-less packages are not taken for one.
     *
     * @throws IllegalStateException when this JVM already has the directory open
     * @throws UncheckedIOException naming the directory when it cannot be created
     */
    public static ChipletLeases open(Path directory, List<Chiplet> chiplets, Topology topology)
    {
        requireNonNull(topology, "topology is null");
        Map<Integer, Object> packageOf = new HashMap<>();
        // A chiplet no package lists is a package of its own: it is never "the same package" as another.
        chiplets.forEach(chiplet -> packageOf.put(chiplet.id(), topology.packageOf(chiplet).<Object>map(p -> p).orElse(chiplet)));
        return open(directory, chiplets, packageOf);
    }

    private static ChipletLeases open(Path directory, List<Chiplet> chiplets, Map<Integer, Object> packageOf)
    {
        requireNonNull(directory, "directory is null");
        List<Chiplet> sorted = chiplets.stream().sorted(Comparator.comparingInt(Chiplet::id)).toList();
        if (sorted.isEmpty()) {
            throw new IllegalArgumentException("no chiplets to lease");
        }
        Path absolute = directory.toAbsolutePath().normalize();
        createSharedDirectory(absolute);
        if (!ACTIVE_DIRECTORIES.add(absolute)) {
            throw new IllegalStateException("chiplet lease directory " + absolute + " is already open in this JVM; use that instance");
        }
        return new ChipletLeases(absolute, sorted, Map.copyOf(packageOf));
    }

    /**
     * Creates {@code directory} and any missing parents: the directory itself {@value #DIRECTORY_MODE} (octal), parents
     * 0755, so that every user of the host can use it whatever the umask. An existing directory is left as it is.
     */
    private static void createSharedDirectory(Path directory)
    {
        if (Files.isDirectory(directory)) {
            return;
        }
        Path parent = directory.getParent();
        if (parent != null && !Files.isDirectory(parent)) {
            createSharedDirectory(parent);
            setMode(parent, 0755);
        }
        try {
            Files.createDirectory(directory);
            setMode(directory, DIRECTORY_MODE);
        }
        catch (FileAlreadyExistsException e) {
            if (!Files.isDirectory(directory)) {
                throw new UncheckedIOException("cannot use " + directory + " as the chiplet lease directory: it exists and is not a directory", e);
            }
        }
        catch (IOException e) {
            throw new UncheckedIOException("cannot create the chiplet lease directory " + directory + ": " + LeaseFileErrors.reason(e, directory), e);
        }
    }

    private static void setMode(Path path, int mode)
    {
        try {
            // The "unix" view sets all twelve mode bits (chmod); the POSIX view has no sticky bit.
            Files.setAttribute(path, "unix:mode", mode);
        }
        catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
            throw new UncheckedIOException("cannot set mode " + Integer.toOctalString(mode) + " on " + path + ": "
                    + (e instanceof IOException io ? LeaseFileErrors.reason(io, path) : e.getMessage()), e instanceof IOException io ? io : new IOException(e));
        }
    }

    public Path directory()
    {
        return directory;
    }

    /**
     * Leases {@code count} distinct chiplets (at most as many as there are). Free ones first; when too few are free,
     * the least-loaded ones, marked {@link ChipletLease#shared() shared} for the caller to log.
     */
    public synchronized LeaseSet acquire(int count)
    {
        checkOpen();
        if (count < 1 || count > chiplets.size()) {
            throw new IllegalArgumentException("expected to lease 1 to " + chiplets.size() + " chiplets but asked for " + count);
        }
        try (FileLock guard = channel(-1).lock(0, 1, false)) {
            List<ChipletLease> leases = new ArrayList<>();
            Map<Integer, FileLock> locks = new HashMap<>();
            Set<Integer> taken = new HashSet<>();
            // Free chiplets: lowest id first, then those of the first one's package.
            Optional<Object> firstPackage = Optional.empty();
            while (leases.size() < count) {
                Optional<Object> preferred = firstPackage;
                Optional<Chiplet> next = chiplets.stream()
                        .filter(chiplet -> !taken.contains(chiplet.id()))
                        .sorted(Comparator.comparing((Chiplet chiplet) -> preferred.map(p -> !p.equals(packageOf.get(chiplet.id()))).orElse(false))
                                .thenComparingInt(Chiplet::id))
                        .filter(chiplet -> holders(chiplet.id()) == 0)
                        .findFirst();
                if (next.isEmpty()) {
                    break;
                }
                Chiplet chiplet = next.get();
                FileLock owner = tryLock(chiplet.id(), 0).orElseThrow(() -> new IllegalStateException("owner slot of free chiplet " + chiplet.id() + " is held"));
                locks.put(chiplet.id(), owner);
                taken.add(chiplet.id());
                leases.add(new ChipletLease(chiplet, false, 0));
                firstPackage = firstPackage.or(() -> Optional.of(packageOf.get(chiplet.id())));
            }
            // Shared: the fewest holders, then the lowest id.
            while (leases.size() < count) {
                Chiplet chiplet = chiplets.stream()
                        .filter(c -> !taken.contains(c.id()))
                        .min(Comparator.comparingInt((Chiplet c) -> holders(c.id())).thenComparingInt(Chiplet::id))
                        .orElseThrow();
                int others = holders(chiplet.id());
                FileLock slot = freeSharerSlot(chiplet.id()).orElseThrow(() -> new IllegalStateException(
                        "chiplet " + chiplet.id() + " already has " + SHARER_SLOTS + " sharers in " + directory));
                locks.put(chiplet.id(), slot);
                taken.add(chiplet.id());
                leases.add(new ChipletLease(chiplet, true, others));
            }
            return new LeaseSet(leases, locks);
        }
        catch (IOException e) {
            throw new UncheckedIOException("cannot lock chiplet lease files in " + directory + ": " + LeaseFileErrors.reason(e, directory), e);
        }
    }

    /** How many holders (JVMs, or lease sets of this one) chiplet {@code id} has now. */
    public synchronized int holders(int id)
    {
        checkOpen();
        int count = 0;
        for (int slot = 0; slot <= SHARER_SLOTS; slot++) {
            if (isHeld(id, slot)) {
                count++;
            }
        }
        return count;
    }

    private boolean isHeld(int id, int slot)
    {
        try {
            FileLock probe = channel(id).tryLock(slot, 1, false);
            if (probe == null) {
                return true;
            }
            probe.release();
            return false;
        }
        catch (OverlappingFileLockException e) {
            // Held by this JVM: the JDK tracks its own locks and refuses an overlapping one.
            return true;
        }
        catch (IOException e) {
            throw new UncheckedIOException("cannot probe " + file(id) + ": " + LeaseFileErrors.reason(e, file(id)), e);
        }
    }

    private Optional<FileLock> tryLock(int id, int slot)
            throws IOException
    {
        try {
            return Optional.ofNullable(channel(id).tryLock(slot, 1, false));
        }
        catch (OverlappingFileLockException e) {
            return Optional.empty();
        }
    }

    private Optional<FileLock> freeSharerSlot(int id)
            throws IOException
    {
        for (int slot = 1; slot <= SHARER_SLOTS; slot++) {
            Optional<FileLock> lock = tryLock(id, slot);
            if (lock.isPresent()) {
                return lock;
            }
        }
        return Optional.empty();
    }

    private FileChannel channel(int id)
    {
        return channels.computeIfAbsent(id, key -> openShared(file(key)));
    }

    /** Opens the lock file for writing (a write lock needs it), creating it {@value #FILE_MODE} (octal) when missing. */
    private static FileChannel openShared(Path file)
    {
        for (int attempt = 0; ; attempt++) {
            try {
                return FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE);
            }
            catch (NoSuchFileException missing) {
                if (attempt > 2) {
                    throw new UncheckedIOException("cannot open chiplet lease file " + file + ": it vanishes as soon as it is created", missing);
                }
                createSharedFile(file);
            }
            catch (IOException e) {
                throw new UncheckedIOException("cannot open chiplet lease file " + file + ": " + LeaseFileErrors.reason(e, file), e);
            }
        }
    }

    /** Creates {@code file} with mode {@value #FILE_MODE} under a private name and links it into place, unless it exists by then. */
    private static void createSharedFile(Path file)
    {
        Path staging = file.resolveSibling("." + file.getFileName() + "." + ProcessHandle.current().pid() + "." + Thread.currentThread().getId() + ".new");
        try {
            Files.deleteIfExists(staging);
            Files.createFile(staging);
            try {
                setMode(staging, FILE_MODE);
                Files.createLink(file, staging);
            }
            catch (FileAlreadyExistsException raced) {
                // Another JVM created it meanwhile: open theirs.
            }
            finally {
                Files.deleteIfExists(staging);
            }
        }
        catch (IOException e) {
            throw new UncheckedIOException("cannot create chiplet lease file " + file + ": " + LeaseFileErrors.reason(e, file), e);
        }
    }

    /**
     * The lock file of chiplet {@code id}: for a launcher that replaces itself with a program ({@code execve}) and
     * must keep this file's descriptor open across it, since the kernel drops the lease when the descriptor closes.
     */
    public Path lockFile(int id)
    {
        return file(id);
    }

    private Path file(int id)
    {
        return directory.resolve(id < 0 ? "leases.guard" : "chiplet-" + id + ".lock");
    }

    private void checkOpen()
    {
        if (closed) {
            throw new IllegalStateException("chiplet leases in " + directory + " are closed");
        }
    }

    /** Releases every lease and closes the files. */
    @Override
    public synchronized void close()
    {
        if (closed) {
            return;
        }
        closed = true;
        IOException failure = null;
        for (FileChannel channel : channels.values()) {
            try {
                channel.close();
            }
            catch (IOException e) {
                failure = e;
            }
        }
        ACTIVE_DIRECTORIES.remove(directory);
        if (failure != null) {
            throw new UncheckedIOException("cannot close chiplet lease files in " + directory, failure);
        }
    }

    /** Chiplets leased together; {@link #close()} releases them. */
    public final class LeaseSet
            implements AutoCloseable
    {
        private final List<ChipletLease> leases;
        private final Map<Integer, FileLock> locks;

        private LeaseSet(List<ChipletLease> leases, Map<Integer, FileLock> locks)
        {
            this.leases = List.copyOf(leases);
            this.locks = Map.copyOf(locks);
        }

        public List<ChipletLease> leases()
        {
            return leases;
        }

        public List<Chiplet> chiplets()
        {
            return leases.stream().map(ChipletLease::chiplet).toList();
        }

        public boolean anyShared()
        {
            return leases.stream().anyMatch(ChipletLease::shared);
        }

        @Override
        public void close()
        {
            synchronized (ChipletLeases.this) {
                for (FileLock lock : locks.values()) {
                    try {
                        if (lock.isValid()) {
                            lock.release();
                        }
                    }
                    catch (IOException e) {
                        throw new UncheckedIOException("cannot release a chiplet lease in " + directory, e);
                    }
                }
            }
        }
    }
}
