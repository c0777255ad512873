package io.chiplet.trino.placement;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.function.Supplier;

import static java.util.Objects.requireNonNull;

/**
 * The registry of the JVM's one placement agent.
 *
 * <p>Native threads belong to the process, and nothing in a thread's kernel name says which Trino node or catalog
 * it serves, so two agents in one JVM would fight over the same threads. That happens when a node has two catalogs
 * with {@code connector.name=chiplet}, and in tests, where {@code DistributedQueryRunner} runs the coordinator and
 * every worker in one JVM. So the first catalog to start creates the agent and every later one shares it (reference
 * counted); the agent closes when the last of them shuts down. The agent runs with the settings of the catalog that
 * created it; a later catalog whose settings differ logs once that they are not applied. The chiplet leases are
 * the agent's too: {@link io.chiplet.affinity.ChipletLeases} allows one instance per directory per JVM for the same
 * reason.
 */
public final class PlacementAgents
{
    private static final Logger log = LoggerFactory.getLogger(PlacementAgents.class);

    // The one registry: the JVM's agent, the catalog and settings that created it, and how many catalogs share it.
    private static Shared shared;

    private PlacementAgents() {}

    /**
     * Shares the JVM's agent, creating it with {@code create} when there is none.
     *
     * @param settings compared with the creator's; a difference is logged, not applied
     * @throws RuntimeException whatever {@code create} throws; nothing is registered then
     */
    public static synchronized Registration register(String catalog, Object settings, Supplier<PlacementAgent> create)
    {
        requireNonNull(catalog, "catalog is null");
        requireNonNull(settings, "settings is null");
        requireNonNull(create, "create is null");
        if (shared == null) {
            shared = new Shared(create.get(), catalog, settings);
        }
        else if (!shared.settings.equals(settings)) {
            log.warn("Chiplet catalog {} shares this JVM's placement agent, which catalog {} started with other settings: {} are not applied",
                    catalog, shared.catalog, settings);
        }
        shared.references++;
        return new Registration(shared);
    }

    /** One catalog's share of the agent; closing the last share closes the agent. */
    public static final class Registration
            implements AutoCloseable
    {
        private final Shared registered;
        private boolean closed;

        private Registration(Shared registered)
        {
            this.registered = registered;
        }

        public PlacementAgent agent()
        {
            return registered.agent;
        }

        /** The catalog whose settings the agent runs with. */
        public String governingCatalog()
        {
            return registered.catalog;
        }

        @Override
        public void close()
        {
            synchronized (PlacementAgents.class) {
                if (closed) {
                    return;
                }
                closed = true;
                if (--registered.references > 0) {
                    return;
                }
                if (shared == registered) {
                    shared = null;
                }
            }
            registered.agent.close();
        }
    }

    private static final class Shared
    {
        private final PlacementAgent agent;
        private final String catalog;
        private final Object settings;
        private int references;

        Shared(PlacementAgent agent, String catalog, Object settings)
        {
            this.agent = agent;
            this.catalog = catalog;
            this.settings = settings;
        }
    }
}
