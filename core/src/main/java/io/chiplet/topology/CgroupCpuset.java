package io.chiplet.topology;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.stream.Collectors;

import static java.util.Objects.requireNonNull;

/**
 * The one place that knows the cpuset files of cgroup v1 and v2: which CPUs and which NUMA nodes (memory) this
 * process's cpuset cgroup allows. Topology discovery and {@link io.chiplet.affinity.PinnableCpus} (the check before
 * every pin) both ask here.
 *
 * <p>The mount is found the way hwloc finds it: the standard mount points first ({@code /sys/fs/cgroup} for cgroup
 * v2, {@code /sys/fs/cgroup/cpuset} for v1), else the first cgroup2 mount with the cpuset controller or cgroup v1
 * mount with the cpuset option listed in {@code /proc/self/mountinfo} (or {@code /proc/mounts}); the process's
 * cgroup path comes from {@code /proc/self/cgroup} (the {@code 0::} line for v2, the {@code cpuset} line for v1),
 * else {@code /proc/self/cpuset}. It then reads {@code cpuset.cpus} (v1) or {@code cpuset.cpus.effective} (v2,
 * already the AND of every ancestor), and for memory {@code cpuset.mems} or {@code cpuset.mems.effective} the same
 * way (hwloc's {@code allowed_nodeset}). A v2 cgroup whose parent does not enable the cpuset controller has no such
 * file, and an empty one means the cgroup sets no limit of its own: either way the nearest ancestor's non-empty
 * {@code cpuset.cpus.effective} is the limit, so the lookup walks up to the mount point. Every path is relative to
 * the filesystem root given.
 */
public final class CgroupCpuset
{
    enum Version
    {
        V1, V2, LEGACY_CPUSET
    }

    record Mount(Version version, String mountPoint) {}

    /** Where this process's cpuset cgroup is: the mount and the cgroup's directory, both relative to the root, ending in '/'. */
    private record Location(Version version, String mountPoint, String cgroup) {}

    /** What the cpuset limits, and the file names that say it: cgroup v1, v1 mounted without prefix, v2. */
    private enum Limit
    {
        CPUS("cpuset.cpus", "cpus", "cpuset.cpus.effective"),
        MEMS("cpuset.mems", "mems", "cpuset.mems.effective");

        private final String v1;
        private final String legacy;
        private final String effective;

        Limit(String v1, String legacy, String effective)
        {
            this.v1 = v1;
            this.legacy = legacy;
            this.effective = effective;
        }
    }

    /**
     * What the cgroup said.
     *
     * @param cpus the CPUs the cpuset allows; empty when no cpuset cgroup applies
     * @param file the file they came from, relative to the filesystem root
     * @param unknowns what could not be told, each a short sentence, as in {@link Topology#unknowns()}
     */
    public record Result(Optional<CpuSet> cpus, Optional<String> file, List<String> unknowns)
    {
        public Result
        {
            requireNonNull(cpus, "cpus is null");
            requireNonNull(file, "file is null");
            unknowns = List.copyOf(unknowns);
        }
    }

    /**
     * What the cgroup said about memory.
     *
     * @param nodes the NUMA nodes the cpuset allows; empty when no cpuset cgroup applies
     * @param file the file they came from, relative to the filesystem root
     * @param unknowns what could not be told about the memory file; what could not be told about the cgroup itself is
     *         in {@link Result#unknowns()}
     */
    record MemoryResult(Optional<SortedSet<Integer>> nodes, Optional<String> file, List<String> unknowns)
    {
        public MemoryResult
        {
            nodes = requireNonNull(nodes, "nodes is null").map(set -> Collections.unmodifiableSortedSet(new TreeSet<>(set)));
            requireNonNull(file, "file is null");
            unknowns = List.copyOf(unknowns);
        }
    }

    private final SysfsFiles files;

    CgroupCpuset(SysfsFiles files)
    {
        this.files = requireNonNull(files, "files is null");
    }

    /**
     * The cpuset of this process's cgroup, every file read under {@code fsRoot} ({@code /} for the live machine).
     *
     * @throws TopologyException naming the file when a cgroup or mount file exists but is unreadable or garbled
     */
    public static Result read(Path fsRoot)
    {
        return new CgroupCpuset(new SysfsFiles(requireNonNull(fsRoot, "fsRoot is null"))).read();
    }

    Result read()
    {
        List<String> unknowns = new ArrayList<>();
        Optional<Location> location = locate(unknowns);
        if (location.isEmpty()) {
            return new Result(Optional.empty(), Optional.empty(), unknowns);
        }
        Optional<Limited> cpus = read(location.get(), Limit.CPUS, unknowns);
        return new Result(cpus.map(Limited::set), cpus.map(Limited::file), unknowns);
    }

    /**
     * The NUMA nodes this process's cpuset cgroup allows ({@code cpuset.mems}, {@code cpuset.mems.effective}).
     *
     * @throws TopologyException naming the file when a cgroup or mount file exists but is unreadable or garbled
     */
    MemoryResult readMemoryNodes()
    {
        // the cgroup's own location problems are reported once, by read()
        Optional<Location> location = locate(new ArrayList<>());
        List<String> unknowns = new ArrayList<>();
        Optional<Limited> mems = location.flatMap(found -> read(found, Limit.MEMS, unknowns));
        return new MemoryResult(mems.map(limited -> limited.set().stream().boxed().collect(Collectors.toCollection(TreeSet::new))),
                mems.map(Limited::file), unknowns);
    }

    private record Limited(CpuSet set, String file) {}

    private Optional<Location> locate(List<String> unknowns)
    {
        Optional<Mount> mount = findMount();
        if (mount.isEmpty()) {
            return Optional.empty();
        }
        Optional<String> path = cgroupPath(mount.get().version());
        if (path.isEmpty()) {
            unknowns.add("cgroup cpuset: a cpuset cgroup is mounted at " + mount.get().mountPoint()
                    + " but neither proc/self/cgroup nor proc/self/cpuset names this process's cgroup; assuming no restriction");
            return Optional.empty();
        }
        return Optional.of(new Location(mount.get().version(), relative(mount.get().mountPoint()), relative(path.get())));
    }

    private Optional<Limited> read(Location location, Limit limit, List<String> unknowns)
    {
        if (location.version() == Version.V2) {
            return readEffective(location.mountPoint(), location.cgroup(), limit, unknowns);
        }
        String file = location.mountPoint() + location.cgroup() + (location.version() == Version.V1 ? limit.v1 : limit.legacy);
        Optional<String> text = files.read(file);
        if (text.isEmpty()) {
            unknowns.add("cgroup cpuset: " + file + " is missing; assuming no restriction");
            return Optional.empty();
        }
        return Optional.of(new Limited(SysfsFiles.parseList(file, text.get()), file));
    }

    /** {@code cpuset.cpus.effective} (or {@code .mems.}) of the cgroup, else of its nearest ancestor with a non-empty one. */
    private Optional<Limited> readEffective(String mountPoint, String cgroup, Limit limit, List<String> unknowns)
    {
        String directory = cgroup;
        while (true) {
            String file = mountPoint + directory + limit.effective;
            Optional<CpuSet> set = files.readList(file);
            if (set.isPresent() && !set.get().isEmpty()) {
                return Optional.of(new Limited(set.get(), file));
            }
            if (directory.isEmpty()) {
                unknowns.add("cgroup cpuset: no non-empty " + limit.effective + " in " + mountPoint + cgroup + " or any parent up to "
                        + (mountPoint.isEmpty() ? "the root" : mountPoint) + "; assuming no restriction");
                return Optional.empty();
            }
            directory = parent(directory);
        }
    }

    /** "a/b/" -> "a/", "a/" -> "". */
    private static String parent(String directory)
    {
        int slash = directory.lastIndexOf('/', directory.length() - 2);
        return slash < 0 ? "" : directory.substring(0, slash + 1);
    }

    Optional<Mount> findMount()
    {
        // the same evidence of a cgroup2 mount with cpuset as for a mount found in the mount table below
        if (files.exists("sys/fs/cgroup/cpuset.cpus.effective") || hasCpusetController("sys/fs/cgroup/")) {
            return Optional.of(new Mount(Version.V2, "/sys/fs/cgroup"));
        }
        if (files.exists("sys/fs/cgroup/cpuset/cpuset.cpus")) {
            return Optional.of(new Mount(Version.V1, "/sys/fs/cgroup/cpuset"));
        }
        Optional<String> mountInfo = files.read("proc/self/mountinfo");
        if (mountInfo.isPresent()) {
            return findMount(mountInfo.get(), true);
        }
        return files.read("proc/mounts").flatMap(mounts -> findMount(mounts, false));
    }

    /**
     * mountinfo lines: {@code id parent major:minor root mountpoint options [optional...] - fstype source superoptions};
     * mounts lines: {@code source mountpoint fstype options dump pass}.
     */
    private Optional<Mount> findMount(String table, boolean mountInfo)
    {
        for (String line : table.split("\n")) {
            String[] fields = line.strip().split(" ");
            String mountPoint;
            String type;
            String options;
            if (mountInfo) {
                int separator = indexOf(fields, "-");
                if (separator < 5 || separator + 3 >= fields.length) {
                    continue;
                }
                mountPoint = unescape(fields[4]);
                type = fields[separator + 1];
                options = fields[separator + 3];
            }
            else {
                if (fields.length < 4) {
                    continue;
                }
                mountPoint = unescape(fields[1]);
                type = fields[2];
                options = fields[3];
            }
            switch (type) {
                case "cgroup2" -> {
                    if (hasCpusetController(relative(mountPoint))) {
                        return Optional.of(new Mount(Version.V2, mountPoint));
                    }
                }
                case "cgroup" -> {
                    if (List.of(options.split(",")).contains("cpuset")) {
                        boolean noPrefix = List.of(options.split(",")).contains("noprefix");
                        return Optional.of(new Mount(noPrefix ? Version.LEGACY_CPUSET : Version.V1, mountPoint));
                    }
                }
                case "cpuset" -> {
                    return Optional.of(new Mount(Version.LEGACY_CPUSET, mountPoint));
                }
                default -> {}
            }
        }
        return Optional.empty();
    }

    /** Whether the cgroup2 directory's {@code cgroup.controllers} lists cpuset. */
    private boolean hasCpusetController(String directory)
    {
        Optional<String> controllers = files.read(directory + "cgroup.controllers");
        return controllers.isPresent() && List.of(controllers.get().strip().split("\\s+")).contains("cpuset");
    }

    private Optional<String> cgroupPath(Version version)
    {
        Optional<String> cgroup = files.read("proc/self/cgroup");
        if (cgroup.isPresent()) {
            for (String line : cgroup.get().split("\n")) {
                int first = line.indexOf(':');
                int second = first < 0 ? -1 : line.indexOf(':', first + 1);
                if (second < 0) {
                    continue;
                }
                String controllers = line.substring(first + 1, second);
                String path = line.substring(second + 1).strip();
                boolean matches = version == Version.V2
                        ? controllers.isEmpty() && line.startsWith("0:")
                        : List.of(controllers.split(",")).contains("cpuset");
                if (matches) {
                    return Optional.of(path);
                }
            }
        }
        return files.read("proc/self/cpuset").map(String::strip).filter(path -> !path.isEmpty());
    }

    /** A mount point or cgroup path as a path relative to the root, ending in '/'. */
    private static String relative(String absolute)
    {
        String path = normalise(absolute);
        return path.equals("/") ? "" : path.substring(1);
    }

    /** Leading and trailing '/' present exactly once: "/a/b/", or "/" for the root. */
    private static String normalise(String path)
    {
        String trimmed = path.strip();
        while (trimmed.startsWith("/")) {
            trimmed = trimmed.substring(1);
        }
        while (trimmed.endsWith("/")) {
            trimmed = trimmed.substring(0, trimmed.length() - 1);
        }
        return trimmed.isEmpty() ? "/" : "/" + trimmed + "/";
    }

    private static int indexOf(String[] fields, String value)
    {
        for (int i = 0; i < fields.length; i++) {
            if (fields[i].equals(value)) {
                return i;
            }
        }
        return -1;
    }

    /** The kernel escapes space, tab, newline and backslash in mount tables as a backslash and three octal digits. */
    static String unescape(String field)
    {
        if (field.indexOf('\\') < 0) {
            return field;
        }
        StringBuilder out = new StringBuilder(field.length());
        for (int i = 0; i < field.length(); i++) {
            char c = field.charAt(i);
            if (c == '\\' && isOctal(field, i + 1)) {
                out.append((char) Integer.parseInt(field.substring(i + 1, i + 4), 8));
                i += 3;
            }
            else {
                out.append(c);
            }
        }
        return out.toString();
    }

    private static boolean isOctal(String s, int from)
    {
        if (from + 3 > s.length()) {
            return false;
        }
        for (int i = from; i < from + 3; i++) {
            if (s.charAt(i) < '0' || s.charAt(i) > '7') {
                return false;
            }
        }
        return true;
    }
}
