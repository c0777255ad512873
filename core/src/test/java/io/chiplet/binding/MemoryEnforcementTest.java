package io.chiplet.binding;

import io.chiplet.affinity.MemoryPolicy;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.OptionalInt;
import java.util.TreeSet;

import static org.assertj.core.api.Assertions.assertThat;

class MemoryEnforcementTest
{
    @Test
    void oneWorkersNodeIsPreferredByThePluginsAndBoundByExec()
    {
        assertThat(MemoryEnforcement.PREFERRED.policyFor(OptionalInt.of(3))).contains(MemoryPolicy.preferred(3));
        assertThat(MemoryEnforcement.BOUND.policyFor(OptionalInt.of(3))).contains(MemoryPolicy.bind(List.of(3)));
    }

    @Test
    void noNodeLeavesMemoryAlone()
    {
        assertThat(MemoryEnforcement.PREFERRED.policyFor(OptionalInt.empty())).isEmpty();
        assertThat(MemoryEnforcement.BOUND.policyFor(OptionalInt.empty())).isEmpty();
    }

    @Test
    void severalNodesArePreferredByNoneAndBoundAll()
    {
        assertThat(MemoryEnforcement.PREFERRED.policyFor(new TreeSet<>(List.of(0, 1)))).isEmpty();
        assertThat(MemoryEnforcement.BOUND.policyFor(new TreeSet<>(List.of(0, 1)))).contains(MemoryPolicy.bind(List.of(0, 1)));
    }
}
