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
}
