package io.chiplet.tpch;

import io.chiplet.tpch.TpchQueries.Dialect;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class TpchQueriesTest
{
    @Test
    void all22AreSingleStatementsInEitherDialect()
    {
        assertThat(TpchQueries.numbers()).hasSize(22).startsWith(1).endsWith(22);
        for (Dialect dialect : Dialect.values()) {
            for (int query : TpchQueries.numbers()) {
                assertThat(TpchQueries.query(query, dialect)).as("q%d in %s", query, dialect)
                        .startsWithIgnoringCase(query == 15 ? "WITH" : "SELECT")
                        .doesNotContain(";", "--")
                        .doesNotContainIgnoringCase("create ");
            }
        }
    }

    @Test
    void onlySparkLosesTheDecimalTypedLiteral()
    {
        assertThat(TpchQueries.query(6, Dialect.TRINO)).containsIgnoringCase("decimal '0.06'");
        assertThat(TpchQueries.query(6, Dialect.SPARK)).doesNotContainIgnoringCase("decimal '").contains("0.06");
        for (int query : TpchQueries.numbers()) {
            if (query != 6) {
                assertThat(TpchQueries.query(query, Dialect.SPARK)).as("q%d", query).isEqualTo(TpchQueries.query(query, Dialect.TRINO));
            }
        }
    }

    @Test
    void viewOfQuery15BecomesACommonTableExpression()
    {
        assertThat(TpchQueries.query(15, Dialect.SPARK)).startsWith("WITH revenue AS (").contains("FROM\n      revenue");
    }

    @Test
    void expectedResultsAreThoseOfScaleFactor001()
    {
        List<List<String>> q1 = TpchQueries.expectedAtScale001(1);
        assertThat(q1).hasSize(4);
        assertThat(q1.get(0)).hasSize(10).startsWith("A", "F").endsWith("14876");
        assertThat(TpchQueries.expectedAtScale001(6)).containsExactly(List.of("1193053.2253"));
        assertThatThrownBy(() -> TpchQueries.query(23, Dialect.TRINO)).hasMessageContaining("q23.sql").hasMessageContaining("io.trino.tpch:tpch");
    }
}
