package io.chiplet.cli;

import io.chiplet.cli.AdviseRun.Output;
import io.chiplet.discovery.TopologyDiscovery;
import io.chiplet.topology.Chiplet;
import io.chiplet.topology.DiscoveryOptions;
import io.chiplet.topology.Snapshots;
import io.chiplet.topology.Topology;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code chiplet advise --cluster-manager} on real machines, read by the real readers: the shared EPYC 7763 hwloc XML
 * (two packages of eight 8-core CCDs, SMT off) and a Sapphire Rapids 8480+ pair in SNC4 (one L3 per package, four
 * 14-core SNC nodes each). The whole output is compared with a reviewed golden file
 * ({@code -Dchiplet.golden.update=true} rewrites them); the facts the issue asks for are also checked on their own.
 */
class ClusterAdviseGoldenTest
{
    private static final Path EPYC_7763 = resource("/hwloc-xml/AMD-Zen3-2xEpyc-7763.xml");

    @TempDir
    Path temp;

    private static Path resource(String name)
    {
        try {
            return Path.of(Objects.requireNonNull(ClusterAdviseGoldenTest.class.getResource(name), name).toURI());
        }
        catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void assertGolden(String name, String actual)
            throws IOException
    {
        Path golden = Path.of("src/test/resources/golden").resolve(name);
        if (Boolean.getBoolean("chiplet.golden.update")) {
            Files.createDirectories(golden.getParent());
            Files.writeString(golden, actual, StandardCharsets.UTF_8);
        }
        assertThat(actual).isEqualTo(Files.readString(golden, StandardCharsets.UTF_8));
    }

    /** The kubelet YAML fragment's lines. */
    private static List<String> kubeletYaml(String out)
    {
        List<String> lines = new ArrayList<>();
        boolean inside = false;
        for (String line : out.lines().toList()) {
            if (line.startsWith("apiVersion: kubelet.config.k8s.io/v1beta1")) {
                inside = true;
            }
            else if (inside && line.isBlank()) {
                break;
            }
            if (inside) {
                lines.add(line);
            }
        }
        return lines;
    }

    /**
     * The kubelet configuration advise writes, as Kubernetes documents it: policy static with one CPU manager option
     * (a string "true"), the reserved CPUs, the topology manager's policy and scope and the memory manager's
     * reservation on node 0; then {@code more} lines.
     */
    private static List<String> kubeletConfiguration(String cpuManagerOption, String reservedSystemCpus, String... more)
    {
        List<String> lines = new ArrayList<>(List.of(
                "apiVersion: kubelet.config.k8s.io/v1beta1",
                "kind: KubeletConfiguration",
                "cpuManagerPolicy: static",
                "cpuManagerPolicyOptions:",
                "  " + cpuManagerOption + ": \"true\"",
                "reservedSystemCPUs: \"" + reservedSystemCpus + "\"",
                "topologyManagerPolicy: single-numa-node",
                "topologyManagerScope: pod",
                "memoryManagerPolicy: Static",
                "# kubeReserved + systemReserved + evictionHard memory.available (default 100Mi): add your reservations here",
                "reservedMemory:",
                "  - numaNode: 0",
                "    limits:",
                "      memory: 100Mi"));
        lines.addAll(List.of(more));
        return lines;
    }

    @Test
    void kubernetesOnEpyc7763SizesExecutorPodsToOneCcdAndAlignsByUncoreCache()
            throws IOException
    {
        Topology topology = TopologyDiscovery.discover(DiscoveryOptions.hwlocXml(EPYC_7763));
        int ccdCpus = topology.chiplets().get(0).cpus().size();
        assertThat(ccdCpus).isEqualTo(8);

        Output run = AdviseRun.run("--engine", "spark", "--cluster-manager", "kubernetes", "--hwloc-xml", EPYC_7763.toString());
        assertThat(run.status()).as(run.err()).isZero();
        assertThat(run.out())
                .contains("spark.kubernetes.executor.request.cores=" + ccdCpus + "\n")
                .contains("spark.kubernetes.executor.limit.cores=" + ccdCpus + "\n")
                .contains("spark.executor.cores=" + ccdCpus + "\n")
                .contains("executor pods per node=" + (topology.chiplets().size() - 1) + "\n");
        // As Kubernetes documents them: policy static, the option under cpuManagerPolicyOptions as a string "true"
        // (no full-pcpus-only: SMT is off here), and the topology manager's policy and scope.
        assertThat(kubeletYaml(run.out())).containsExactlyElementsOf(kubeletConfiguration("prefer-align-cpus-by-uncorecache", "0",
                "# Kubernetes 1.32 and 1.33 only, where prefer-align-cpus-by-uncorecache is alpha:",
                "# featureGates:",
                "#   CPUManagerPolicyAlphaOptions: true"));
        assertGolden("advise-kubernetes-spark-epyc7763.txt", run.out());
    }

    @Test
    void kubernetesOnSapphireRapidsSnc4AlignsBySingleNumaNodeWithWholeCores()
            throws IOException
    {
        Path root = Snapshots.unpack("2xspr8480-snc4", temp);
        Topology topology = TopologyDiscovery.discover(DiscoveryOptions.fsRoot(root));
        Chiplet first = topology.chiplets().get(0);
        assertThat(first.cpus().size()).isEqualTo(28);

        Output run = AdviseRun.run("--engine", "spark", "--cluster-manager", "kubernetes", "--fs-root", root.toString());
        assertThat(run.status()).as(run.err()).isZero();
        assertThat(run.out())
                .contains("spark.kubernetes.executor.request.cores=28\n")
                .contains("spark.kubernetes.executor.limit.cores=28\n")
                .contains("spark.executor.cores=14\n")
                .contains("    cpu: \"28\"\n");
        // One L3 per package to the kernel: the uncore-cache option would do nothing, the NUMA node is the chiplet.
        assertThat(kubeletYaml(run.out())).containsExactlyElementsOf(kubeletConfiguration("full-pcpus-only", "0,112"));
        assertGolden("advise-kubernetes-spark-spr8480-snc4.txt", run.out());

        Output trino = AdviseRun.run("--engine", "trino", "--cluster-manager", "kubernetes", "--fs-root", root.toString());
        assertThat(trino.status()).as(trino.err()).isZero();
        assertGolden("advise-kubernetes-trino-spr8480-snc4.txt", trino.out());
    }

    @Test
    void yarnSizesContainersToAChipletAndSaysWhereLeasesAreNeeded()
            throws IOException
    {
        Path root = Snapshots.unpack("2xspr8480-snc4", temp);
        Output snc = AdviseRun.run("--engine", "spark", "--cluster-manager", "yarn", "--fs-root", root.toString());
        assertThat(snc.status()).as(snc.err()).isZero();
        // A NUMA node is a chiplet here: YARN's numactl binding is already aligned, tasks are pinned inside it.
        assertThat(snc.out()).contains("<name>yarn.nodemanager.numa-awareness.enabled</name>\n  <value>true</value>")
                .contains("executors per NUMA node=1\n").contains("spark.chiplet.mode=task\n")
                // Executors of a node lease in one directory, not in each container's own java.io.tmpdir.
                .contains("\nspark.chiplet.leaseDir=/tmp/chiplet-leases\n")
                // What the LinuxContainerExecutor needs besides its class name.
                .contains("<name>yarn.nodemanager.linux-container-executor.group</name>\n  <value>hadoop</value>")
                .contains("\nyarn.nodemanager.linux-container-executor.group=hadoop\n")
                .contains("chmod 6050 \"$HADOOP_HOME/bin/container-executor\"\n");
        assertGolden("advise-yarn-spark-spr8480-snc4.txt", snc.out());

        Output epyc = AdviseRun.run("--engine", "spark", "--cluster-manager", "yarn", "--hwloc-xml", EPYC_7763.toString());
        assertThat(epyc.status()).as(epyc.err()).isZero();
        // Several chiplets per node: each executor leases one of its node.
        assertThat(epyc.out()).contains("spark.chiplet.mode=executor\n").contains("spark.executor.cores=8\n");
    }

    @Test
    void standaloneAndBadInput()
    {
        Output trino = AdviseRun.run("--engine", "trino", "--cluster-manager", "standalone", "--hwloc-xml", EPYC_7763.toString());
        assertThat(trino.status()).as(trino.err()).isZero();
        assertThat(trino.out()).contains("chiplet exec --policy wicp-local --membind -- bin/launcher run\n").contains("workers per host=16\n");

        Output yarnTrino = AdviseRun.run("--engine", "trino", "--cluster-manager", "yarn", "--hwloc-xml", EPYC_7763.toString());
        assertThat(yarnTrino.status()).isEqualTo(2);
        assertThat(yarnTrino.err()).isEqualTo("chiplet advise: --cluster-manager yarn: Trino does not run on YARN; use kubernetes or standalone\n");

        Output unknown = AdviseRun.run("--engine", "spark", "--cluster-manager", "mesos", "--hwloc-xml", EPYC_7763.toString());
        assertThat(unknown.status()).isEqualTo(2);
        assertThat(unknown.err()).isEqualTo("chiplet advise: --cluster-manager: expected kubernetes, yarn or standalone but found \"mesos\"\n");
    }
}
