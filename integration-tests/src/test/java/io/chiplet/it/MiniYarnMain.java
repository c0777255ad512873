package io.chiplet.it;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.yarn.api.records.NodeId;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.server.MiniYARNCluster;
import org.apache.hadoop.yarn.server.resourcemanager.nodelabels.RMNodeLabelsManager;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Hadoop's {@link MiniYARNCluster} (a ResourceManager and NodeManagers, real container processes) in a JVM of its
 * own, for {@link YarnCluster}: the test JVM runs Spark's classes, this one YARN's, as on a real cluster.
 *
 * <p>Arguments: {@code <conf dir> <node managers>}. The NodeManager with index 0 carries the exclusive node label
 * {@value #EXECUTOR_LABEL}: executors asked for with {@code spark.yarn.executor.nodeLabelExpression} of that label
 * all land on it, the application masters (no label) on the others. Once every NodeManager has registered, it writes
 * {@code yarn-site.xml} (the cluster's configuration with the ports it bound) and {@code core-site.xml} into the conf
 * dir, prints {@code CHIPLET-YARN ready}, and runs until its standard input closes (the test JVM ended or closed it).
 */
public final class MiniYarnMain
{
    static final String EXECUTOR_LABEL = "executors";
    /** Per NodeManager. Containers only reserve heap; YARN's memory checks are off, so this may exceed the machine's. */
    static final int NODE_MEMORY_MB = 24_576;
    static final int NODE_VCORES = 8;

    private MiniYarnMain() {}

    public static void main(String[] args)
            throws Exception
    {
        Path confDir = Path.of(args[0]);
        int nodeManagers = Integer.parseInt(args[1]);
        YarnConfiguration conf = new YarnConfiguration();
        conf.set("fs.defaultFS", "file:///");
        conf.setInt(YarnConfiguration.NM_PMEM_MB, NODE_MEMORY_MB);
        // MiniYARNCluster gives its NodeManagers this one instead (4096 by default).
        conf.setInt(YarnConfiguration.YARN_MINICLUSTER_NM_PMEM_MB, NODE_MEMORY_MB);
        conf.setInt(YarnConfiguration.NM_VCORES, NODE_VCORES);
        conf.setBoolean(YarnConfiguration.NM_PMEM_CHECK_ENABLED, false);
        conf.setBoolean(YarnConfiguration.NM_VMEM_CHECK_ENABLED, false);
        conf.setInt(YarnConfiguration.RM_SCHEDULER_MINIMUM_ALLOCATION_MB, 128);
        conf.setInt(YarnConfiguration.RM_SCHEDULER_MAXIMUM_ALLOCATION_MB, 16_384);
        conf.setInt(YarnConfiguration.RM_SCHEDULER_MAXIMUM_ALLOCATION_VCORES, NODE_VCORES);
        // A full disk on a build machine must not make the NodeManagers unhealthy.
        conf.setFloat(YarnConfiguration.NM_MAX_PER_DISK_UTILIZATION_PERCENTAGE, 99.9f);
        conf.setLong(YarnConfiguration.NM_MIN_PER_DISK_FREE_SPACE_MB, 0);
        // Stopped containers go at once (the default waits 250 ms between SIGTERM and SIGKILL, which is fine) and
        // finished applications' files are not kept around.
        conf.setInt(YarnConfiguration.DEBUG_NM_DELETE_DELAY_SEC, 0);
        conf.setBoolean(YarnConfiguration.NODE_LABELS_ENABLED, true);
        conf.set(YarnConfiguration.FS_NODE_LABELS_STORE_ROOT_DIR, confDir.resolve("node-labels").toUri().toString());
        conf.set("yarn.scheduler.capacity.root.queues", "default");
        conf.set("yarn.scheduler.capacity.root.default.capacity", "100");
        conf.set("yarn.scheduler.capacity.maximum-am-resource-percent", "0.5");
        conf.set("yarn.scheduler.capacity.root.accessible-node-labels", EXECUTOR_LABEL);
        conf.set("yarn.scheduler.capacity.root.accessible-node-labels." + EXECUTOR_LABEL + ".capacity", "100");
        conf.set("yarn.scheduler.capacity.root.default.accessible-node-labels", EXECUTOR_LABEL);
        conf.set("yarn.scheduler.capacity.root.default.accessible-node-labels." + EXECUTOR_LABEL + ".capacity", "100");
        // Executors are placed at every NodeManager heartbeat: a short one lets dynamic allocation and replacements act quickly.
        conf.setLong(YarnConfiguration.RM_NM_HEARTBEAT_INTERVAL_MS, 200);

        MiniYARNCluster cluster = new MiniYARNCluster("chiplet-yarn", nodeManagers, 1, 1);
        cluster.init(conf);
        cluster.start();
        try {
            if (!cluster.waitForNodeManagersToConnect(120_000)) {
                throw new IllegalStateException("not all " + nodeManagers + " NodeManagers registered within 120 s");
            }
            NodeId executorNode = cluster.getNodeManager(0).getNMContext().getNodeId();
            RMNodeLabelsManager labels = cluster.getResourceManager().getRMContext().getNodeLabelManager();
            labels.addToCluserNodeLabelsWithDefaultExclusivity(Set.of(EXECUTOR_LABEL));
            labels.replaceLabelsOnNode(Map.of(executorNode, Set.of(EXECUTOR_LABEL)));

            Configuration written = new Configuration(cluster.getConfig());
            Files.createDirectories(confDir);
            Path yarnSite = confDir.resolve("yarn-site.xml.partial");
            try (OutputStream out = Files.newOutputStream(yarnSite)) {
                written.writeXml(out);
            }
            Files.writeString(confDir.resolve("core-site.xml"), """
                    <?xml version="1.0"?>
                    <configuration>
                      <property><name>fs.defaultFS</name><value>file:///</value></property>
                    </configuration>
                    """);
            Files.move(yarnSite, confDir.resolve("yarn-site.xml"));
            List<String> nodes = new ArrayList<>();
            for (int index = 0; index < nodeManagers; index++) {
                var context = cluster.getNodeManager(index).getNMContext();
                nodes.add(context.getNodeId() + "=" + String.join(",", cluster.getNodeManager(index).getConfig().getStrings(YarnConfiguration.NM_LOG_DIRS)));
            }
            System.out.println("CHIPLET-YARN ready rm=" + written.get(YarnConfiguration.RM_ADDRESS) + " executorNode=" + executorNode + " nodes=" + String.join(";", nodes));
            System.out.flush();
            // Until the test JVM closes our stdin (or dies, which closes it too).
            while (System.in.read() >= 0) {
                // ignore input
            }
        }
        catch (IOException | RuntimeException e) {
            e.printStackTrace();
            throw e;
        }
        finally {
            cluster.stop();
        }
        System.exit(0);
    }
}
