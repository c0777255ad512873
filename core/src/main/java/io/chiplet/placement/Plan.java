package io.chiplet.placement;

import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * A placement: one assignment per worker, in worker order.
 *
 * @param policy the policy applied ({@code auto} resolves to {@code wicp-local} or {@code wicp-mixed})
 * @param requested the policy asked for
 * @param reason one sentence on why the plan looks the way it does
 */
public record Plan(Policy policy, Policy requested, List<Assignment> assignments, String reason)
{
    public Plan
    {
        requireNonNull(policy, "policy is null");
        requireNonNull(requested, "requested is null");
        requireNonNull(reason, "reason is null");
        assignments = List.copyOf(assignments);
    }

    /**
     * Whether a runner should bind memory to each worker's node. Under {@code wim} the node is only a preference
     * spread round-robin, since the study's WIM places no restriction on memory (§3.2).
     */
    // #24 phase B: remove once the plugins use WorkerTarget.memoryNodeToBind() (MemoryBinding holds the whole rule).
    public boolean bindsMemory()
    {
        return policy != Policy.WIM;
    }
}
