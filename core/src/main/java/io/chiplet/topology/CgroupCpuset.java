package io.chiplet.topology;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * Finds the CPUs this process's cpuset cgroup allows, the way hwloc does: the standard mount points first
 * ({@code /sys/fs/cgroup} for cgroup v2, {@code /sys/fs/cgroup/cpuset} for v1), else the first cgroup2 mount
 * with the cpuset controller or cgroup v1 mount with the cpuset option listed in {@code /proc/self/mountinfo}
 * (or {@code /proc/mounts}); the process's cgroup path comes from {@code /proc/self/cgroup} (the {@code 0::}
 * line for v2, the {@code cpuset} line for v1), else {@code /proc/self/cpuset}. It then reads
 * {@code cpuset.cpus.effective} (v2, already the AND of every ancestor) or {@code cpuset.cpus} (v1).
 * Every path is relative to the filesystem root given.
 */
final class CgroupCpuset
{
    enum Version
    {
        V1, V2, LEGACY_CPUSET
    }

    record Mount(Version version, String mountPoint) {}

    /** What the cgroup said: the allowed CPUs (empty when no cpuset cgroup applies) and the file it came from. */
    record Result(Optional<CpuSet> cpus, Optional<String> file, List<String> unknowns) {}

    private final SysfsFiles files;

    CgroupCpuset(SysfsFiles files)
    {
        this.files = requireNonNull(files, "files is null");
    }

    Result read()
    {
        List<String> unknowns = new ArrayList<>();
        Optional<Mount> mount = findMount();
        if (mount.isEmpty()) {
            return new Result(Optional.empty(), Optional.empty(), unknowns);
        }
        Optional<String> path = cgroupPath(mount.get().version());
        if (path.isEmpty()) {
            unknowns.add("cgroup cpuset: a cpuset cgroup is mounted at " + mount.get().mountPoint()
                    + " but neither proc/self/cgroup nor proc/self/cpuset names this process's cgroup; assuming no restriction");
            return new Result(Optional.empty(), Optional.empty(), unknowns);
        }
        String attribute = switch (mount.get().version()) {
            case V2 -> "cpuset.cpus.effective";
            case V1 -> "cpuset.cpus";
            case LEGACY_CPUSET -> "cpus";
        };
        String directory = relative(mount.get().mountPoint()) + relative(path.get());
        String file = directory + attribute;
        Optional<String> text = files.read(file);
        if (text.isEmpty()) {
            unknowns.add("cgroup cpuset: " + file + " is missing; assuming no restriction");
            return new Result(Optional.empty(), Optional.empty(), unknowns);
        }
        return new Result(Optional.of(SysfsFiles.parseList(file, text.get())), Optional.of(file), unknowns);
    }

    Optional<Mount> findMount()
    {
        if (files.exists("sys/fs/cgroup/cpuset.cpus.effective")) {
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
                    Optional<String> controllers = files.read(relative(mountPoint) + "cgroup.controllers");
                    if (controllers.isPresent() && List.of(controllers.get().strip().split("\\s+")).contains("cpuset")) {
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
