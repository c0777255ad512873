package io.chiplet.discovery;

import io.chiplet.topology.DiscoveryOptions;
import io.chiplet.topology.Snapshots;
import io.chiplet.topology.Topology;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.stream.Stream;

import static java.util.Objects.requireNonNull;

/**
 * Every machine bundled with core's tests: the hwloc XML files under {@code /hwloc-xml} and the sysfs snapshots under
 * {@code /snapshots}, read as the {@code chiplet} CLI reads them. For the tests that compare the CLI with what the
 * plugins bind on all of them; the resources may be in a folder or in core's test jar ({@code chiplet-core:tests}).
 */
public final class BundledMachines
{
    /**
     * One bundled machine.
     *
     * @param name {@code hwloc-xml/FILE} or {@code snapshots/NAME}
     * @param source the CLI's arguments that read it ({@code --hwloc-xml FILE} or {@code --fs-root ROOT})
     */
    public record Machine(String name, List<String> source, Topology topology)
    {
        public Machine
        {
            requireNonNull(name, "name is null");
            source = List.copyOf(source);
            requireNonNull(topology, "topology is null");
        }

        public boolean isHwlocXml()
        {
            return name.startsWith("hwloc-xml/");
        }

        @Override
        public String toString()
        {
            return name;
        }
    }

    private BundledMachines() {}

    /**
     * Every bundled machine, the hwloc XMLs first, each kind in name order.
     *
     * @param directory where the hwloc XMLs are copied and the snapshots unpacked (a test's temporary folder)
     */
    public static List<Machine> load(Path directory)
            throws IOException
    {
        requireNonNull(directory, "directory is null");
        List<Machine> machines = new ArrayList<>();
        for (String xml : resourceNames("/hwloc-xml", ".xml")) {
            Path file = directory.resolve(xml);
            try (InputStream in = BundledMachines.class.getResourceAsStream("/hwloc-xml/" + xml)) {
                Files.copy(requireNonNull(in, xml), file);
            }
            machines.add(new Machine("hwloc-xml/" + xml, List.of("--hwloc-xml", file.toString()), TopologyDiscovery.discover(DiscoveryOptions.hwlocXml(file))));
        }
        for (String tarball : resourceNames("/snapshots", ".tar.bz2")) {
            String name = tarball.substring(0, tarball.length() - ".tar.bz2".length());
            Path root = Snapshots.unpack(name, directory);
            machines.add(new Machine("snapshots/" + name, List.of("--fs-root", root.toString()), TopologyDiscovery.discover(DiscoveryOptions.fsRoot(root))));
        }
        return List.copyOf(machines);
    }

    /** The names of the class path resources in {@code folder} (such as {@code /snapshots}) ending with {@code suffix}, sorted. */
    public static List<String> resourceNames(String folder, String suffix)
            throws IOException
    {
        SortedSet<String> names = new TreeSet<>();
        for (URL url : Collections.list(BundledMachines.class.getClassLoader().getResources(folder.substring(1)))) {
            URI uri;
            try {
                uri = url.toURI();
            }
            catch (URISyntaxException e) {
                throw new IllegalStateException(e);
            }
            if (uri.getScheme().equals("jar")) {
                try (FileSystem jar = FileSystems.newFileSystem(uri, Map.of())) {
                    names.addAll(names(jar.getPath(folder), suffix));
                }
            }
            else {
                names.addAll(names(Path.of(uri), suffix));
            }
        }
        return List.copyOf(names);
    }

    private static List<String> names(Path folder, String suffix)
            throws IOException
    {
        try (Stream<Path> files = Files.list(folder)) {
            return files.map(file -> file.getFileName().toString()).filter(name -> name.endsWith(suffix)).toList();
        }
    }
}
