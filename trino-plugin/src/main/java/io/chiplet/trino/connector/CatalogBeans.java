package io.chiplet.trino.connector;

import io.chiplet.measure.MeasureReport;
import io.chiplet.trino.guard.FailOpenSwitch;
import io.chiplet.trino.measure.QueryMeasurements;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.management.InstanceAlreadyExistsException;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import javax.management.StandardMBean;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Supplier;
import java.util.stream.Collectors;

import static java.util.Objects.requireNonNull;

/**
 * The catalog's JMX beans in the platform MBean server, where Trino's own are and where its JMX connector looks:
 * {@code io.chiplet.trino:type=Placement,name=<catalog>} on every node and, on the coordinator that measures,
 * {@code io.chiplet.trino:type=Measurement,name=<catalog>}. The beans read the catalog's state when asked (a scrape),
 * never on their own. A name already taken (two Trino servers in one JVM, as in tests) keeps the first; any failure
 * costs the beans only, with one warning.
 */
final class CatalogBeans
        implements AutoCloseable
{
    static final String DOMAIN = "io.chiplet.trino";
    private static final Logger log = LoggerFactory.getLogger(CatalogBeans.class);

    private final MBeanServer server;
    private final List<ObjectName> registered;

    private CatalogBeans(MBeanServer server, List<ObjectName> registered)
    {
        this.server = server;
        this.registered = List.copyOf(registered);
    }

    static ObjectName name(String type, String catalog)
    {
        try {
            // Trino's catalog names are plain words; anything else is quoted, as JMX names want it.
            return new ObjectName(DOMAIN + ":type=" + type + ",name=" + (catalog.matches("[A-Za-z0-9_.-]+") ? catalog : ObjectName.quote(catalog)));
        }
        catch (javax.management.MalformedObjectNameException e) {
            throw new IllegalArgumentException("catalog name not usable in a JMX name: " + catalog, e);
        }
    }

    /** Registers the placement bean over {@code state}, and the measurement bean where {@code measurements} is present. */
    static CatalogBeans register(String catalog, CatalogState state, Optional<QueryMeasurements> measurements)
    {
        requireNonNull(catalog, "catalog is null");
        requireNonNull(state, "state is null");
        MBeanServer server = ManagementFactory.getPlatformMBeanServer();
        List<ObjectName> registered = new ArrayList<>();
        try {
            register(server, name("Placement", catalog), new StandardMBean(new Placement(state), ChipletPlacementMXBean.class, true), registered);
            if (measurements.isPresent()) {
                QueryMeasurements measuring = measurements.get();
                register(server, name("Measurement", catalog), new StandardMBean(new Measurement(() -> measuring.started() ? Optional.of(measuring.report()) : Optional.empty()),
                        ChipletMeasurementMXBean.class, true), registered);
            }
        }
        catch (Throwable e) {
            FailOpenSwitch.rethrowIfFatal(e);
            log.warn("Chiplet catalog {}: no JMX beans, the runtime tables still have every figure: {}", catalog, e.toString());
        }
        return new CatalogBeans(server, registered);
    }

    private static void register(MBeanServer server, ObjectName name, Object bean, List<ObjectName> registered)
            throws Exception
    {
        try {
            server.registerMBean(bean, name);
            registered.add(name);
        }
        catch (InstanceAlreadyExistsException e) {
            log.debug("JMX bean {} is registered already (another server in this JVM): keeping the first", name);
        }
    }

    List<ObjectName> names()
    {
        return registered;
    }

    @Override
    public void close()
    {
        for (ObjectName name : registered) {
            try {
                server.unregisterMBean(name);
            }
            catch (Exception e) {
                log.debug("JMX bean {} already gone", name, e);
            }
        }
    }

    /** The catalog's {@code runtime.status} row, read per attribute. */
    private record Placement(CatalogState state)
            implements ChipletPlacementMXBean
    {
        private Object status(String column)
        {
            List<Object> row = state.rows(RuntimeTable.STATUS, List.of()).getFirst();
            List<String> columns = RuntimeTable.STATUS.columns().stream().map(metadata -> metadata.getName()).toList();
            return row.get(columns.indexOf(column));
        }

        private String text(String column)
        {
            return Objects.toString(status(column), "");
        }

        private long number(String column)
        {
            return status(column) instanceof Number number ? number.longValue() : 0;
        }

        @Override
        public boolean isPlacing()
        {
            return Boolean.TRUE.equals(status("placing"));
        }

        @Override
        public String getPolicy()
        {
            return text("policy");
        }

        @Override
        public String getTopologySource()
        {
            return text("topology_source");
        }

        @Override
        public long getThreads()
        {
            return number("threads");
        }

        @Override
        public String getThreadsPerChiplet()
        {
            List<String> columns = RuntimeTable.PLACEMENT.columns().stream().map(metadata -> metadata.getName()).toList();
            int chiplet = columns.indexOf("chiplet");
            Map<Long, Long> threads = new TreeMap<>();
            for (List<Object> row : state.rows(RuntimeTable.PLACEMENT, List.of())) {
                if (row.get(chiplet) instanceof Long id) {
                    threads.merge(id, 1L, Long::sum);
                }
            }
            return threads.entrySet().stream().map(entry -> entry.getKey() + "=" + entry.getValue()).collect(Collectors.joining(","));
        }

        @Override
        public String getProblem()
        {
            return text("problem");
        }

        @Override
        public String getPlacingOnCpus()
        {
            return text("placing_on_cpus");
        }

        @Override
        public long getCpusetChanges()
        {
            return number("cpuset_changes");
        }

        @Override
        public long getUsableChiplets()
        {
            return number("usable_chiplets");
        }

        @Override
        public long getUsableCores()
        {
            return number("usable_cores");
        }
    }

    /** The coordinator's measurement report, made when an attribute is read. */
    private record Measurement(Supplier<Optional<MeasureReport>> report)
            implements ChipletMeasurementMXBean
    {
        @Override
        public double getSpeedUp()
        {
            return report.get().flatMap(current -> current.estimate().speedUp()).orElse(Double.NaN);
        }

        @Override
        public double getSpeedUpLow()
        {
            return report.get().flatMap(current -> current.estimate().speedUpLow()).orElse(Double.NaN);
        }

        @Override
        public double getSpeedUpHigh()
        {
            return report.get().flatMap(current -> current.estimate().speedUpHigh()).orElse(Double.NaN);
        }

        @Override
        public long getPlacedUnits()
        {
            return report.get().map(current -> (long) current.estimate().placedUnits()).orElse(0L);
        }

        @Override
        public long getControlUnits()
        {
            return report.get().map(current -> (long) current.estimate().controlUnits()).orElse(0L);
        }

        @Override
        public long getShapesCompared()
        {
            return report.get().map(current -> (long) current.estimate().strataCompared()).orElse(0L);
        }

        @Override
        public boolean isPlacing()
        {
            return report.get().map(current -> current.guard().placing()).orElse(true);
        }

        @Override
        public double getControlShare()
        {
            return report.get().map(current -> current.directive().controlShare()).orElse(0.0);
        }

        @Override
        public double getPluginCpuShare()
        {
            return report.get().flatMap(current -> current.cost().share().isPresent() ? Optional.of(current.cost().share().getAsDouble()) : Optional.empty())
                    .orElse(Double.NaN);
        }

        @Override
        public String getVerdict()
        {
            return report.get().map(MeasureReport::verdict).orElse("not measuring");
        }

        @Override
        public String getSummary()
        {
            return report.get().map(MeasureReport::summaryLine).orElse("not measuring");
        }
    }
}
