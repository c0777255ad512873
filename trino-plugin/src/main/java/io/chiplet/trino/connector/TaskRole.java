package io.chiplet.trino.connector;

import io.trino.spi.Node;
import io.trino.spi.NodeManager;

import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * Whether this node runs query tasks, and so whether its catalog may lease chiplets and pin threads. A worker always
 * does. A coordinator does only with {@code node-scheduler.include-coordinator=true}: Trino's connector node manager
 * lists the coordinator among {@link NodeManager#getWorkerNodes()} exactly then (it filters the active nodes by
 * {@code !isCoordinator() || includeCoordinator}, and adds the current node before discovery has announced it), which
 * holds from Trino 476 to 483. Where that cannot be read, the node is taken to run no tasks: placing nothing is what
 * Trino does without the plugin.
 *
 * @param runsTasks whether the scheduler gives this node tasks
 * @param reason why, in the words of the log line and the {@code status} table
 * @param determined false where the node manager could not be asked and the node is taken to run no tasks
 */
public record TaskRole(boolean runsTasks, String reason, boolean determined)
{
    public static final TaskRole WORKER = new TaskRole(true, "a worker", true);

    public TaskRole
    {
        requireNonNull(reason, "reason is null");
    }

    /**
     * @param coordinator whether this node is the coordinator
     * @param listedAsWorker whether the node manager lists this node among the nodes that run tasks; empty where it
     *         could not be asked
     */
    public static TaskRole of(boolean coordinator, Optional<Boolean> listedAsWorker)
    {
        requireNonNull(listedAsWorker, "listedAsWorker is null");
        if (!coordinator) {
            return WORKER;
        }
        return listedAsWorker
                .map(listed -> listed
                        ? new TaskRole(true, "a coordinator that schedules tasks on itself (node-scheduler.include-coordinator=true)", true)
                        : new TaskRole(false, "a coordinator that runs no tasks (node-scheduler.include-coordinator=false)", true))
                .orElseGet(() -> new TaskRole(false, "a coordinator whose node manager does not say whether it runs tasks", false));
    }

    /** This node's role, read from the node manager the catalog was given; empty node manager: cannot tell. */
    static TaskRole of(Node current, Optional<NodeManager> nodeManager)
    {
        requireNonNull(current, "current is null");
        requireNonNull(nodeManager, "nodeManager is null");
        if (!current.isCoordinator()) {
            return WORKER;
        }
        return of(true, nodeManager.map(manager -> manager.getWorkerNodes().stream()
                .anyMatch(node -> node.getNodeIdentifier().equals(current.getNodeIdentifier()))));
    }
}
