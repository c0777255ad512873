package io.chiplet.trino.connector;

import io.trino.spi.HostAddress;
import io.trino.spi.Node;
import io.trino.spi.NodeManager;
import org.junit.jupiter.api.Test;

import java.util.Optional;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

class TaskRoleTest
{
    private static final Node COORDINATOR = node("coordinator", true);
    private static final Node WORKER_1 = node("worker-1", false);

    @Test
    void aWorkerRunsTasksWhateverTheNodeManagerSays()
    {
        assertThat(TaskRole.of(WORKER_1, Optional.empty())).isEqualTo(TaskRole.WORKER);
        assertThat(TaskRole.of(WORKER_1, Optional.of(manager(WORKER_1, Set.of())))).isEqualTo(TaskRole.WORKER);
    }

    @Test
    void aCoordinatorRunsTasksOnlyWhereTheNodeManagerListsItAmongTheWorkers()
    {
        // Trino's connector node manager lists the coordinator among the workers exactly with include-coordinator=true.
        assertThat(TaskRole.of(COORDINATOR, Optional.of(manager(COORDINATOR, Set.of(COORDINATOR, WORKER_1)))).runsTasks()).isTrue();
        TaskRole excluded = TaskRole.of(COORDINATOR, Optional.of(manager(COORDINATOR, Set.of(WORKER_1))));
        assertThat(excluded.runsTasks()).isFalse();
        assertThat(excluded.reason()).contains("node-scheduler.include-coordinator=false");
        // Before any worker announced itself the list holds at most the coordinator.
        assertThat(TaskRole.of(COORDINATOR, Optional.of(manager(COORDINATOR, Set.of()))).runsTasks()).isFalse();
    }

    @Test
    void aCoordinatorThatCannotTellPlacesNothing()
    {
        TaskRole unknown = TaskRole.of(COORDINATOR, Optional.empty());
        assertThat(unknown.runsTasks()).isFalse();
        assertThat(unknown.reason()).contains("does not say whether it runs tasks");
        assertThat(unknown.determined()).isFalse();
    }

    private static NodeManager manager(Node current, Set<Node> workers)
    {
        return new NodeManager()
        {
            @Override
            public Set<Node> getAllNodes()
            {
                return workers;
            }

            @Override
            public Set<Node> getWorkerNodes()
            {
                return workers;
            }

            @Override
            public Node getCurrentNode()
            {
                return current;
            }

            @Override
            public String getEnvironment()
            {
                return "test";
            }
        };
    }

    private static Node node(String id, boolean coordinator)
    {
        return new Node()
        {
            @Override
            public String getHost()
            {
                return "127.0.0.1";
            }

            @Override
            public HostAddress getHostAndPort()
            {
                return HostAddress.fromParts("127.0.0.1", 8080);
            }

            @Override
            public String getNodeIdentifier()
            {
                return id;
            }

            @Override
            public String getVersion()
            {
                return "476";
            }

            @Override
            public boolean isCoordinator()
            {
                return coordinator;
            }
        };
    }
}
