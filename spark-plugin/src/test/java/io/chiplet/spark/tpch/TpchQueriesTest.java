package io.chiplet.spark.tpch;

import io.trino.tpch.TpchTable;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class TpchQueriesTest
{
    @Test
    void all22AreSingleSparkStatements()
    {
        assertThat(TpchQueries.numbers()).hasSize(22).startsWith(1).endsWith(22);
        for (int query : TpchQueries.numbers()) {
            String sql = TpchQueries.query(query);
            assertThat(sql).as("q%d", query)
                    .startsWithIgnoringCase(query == 15 ? "WITH" : "SELECT")
                    .doesNotContain(";", "--")
                    .doesNotContainIgnoringCase("decimal '", "create ");
        }
    }

    @Test
    void viewOfQuery15BecomesACommonTableExpression()
    {
        assertThat(TpchQueries.query(15)).startsWith("WITH revenue AS (").contains("FROM\n      revenue");
    }

    @Test
    void expectedResultsAreThoseOfScaleFactor001()
    {
        List<List<String>> q1 = TpchQueries.expectedAtScale001(1);
        assertThat(q1).hasSize(4);
        assertThat(q1.getFirst()).hasSize(10).startsWith("A", "F").endsWith("14876");
        assertThat(TpchQueries.expectedAtScale001(6)).containsExactly(List.of("1193053.2253"));
        assertThatThrownBy(() -> TpchQueries.query(23)).hasMessageContaining("q23.sql");
    }

    @Test
    void schemasFollowTheSpecification()
    {
        StructType lineitem = TpchTables.schema(TpchTable.LINE_ITEM);
        assertThat(lineitem.apply("l_orderkey").dataType()).isEqualTo(DataTypes.LongType);
        assertThat(lineitem.apply("l_linenumber").dataType()).isEqualTo(DataTypes.IntegerType);
        assertThat(lineitem.apply("l_extendedprice").dataType()).isEqualTo(DataTypes.createDecimalType(15, 2));
        assertThat(lineitem.apply("l_discount").dataType()).isEqualTo(DataTypes.createDecimalType(15, 2));
        assertThat(lineitem.apply("l_shipdate").dataType()).isEqualTo(DataTypes.DateType);
        assertThat(lineitem.apply("l_comment").dataType()).isEqualTo(DataTypes.StringType);
        assertThat(lineitem.fieldNames()).hasSize(16);
    }
}
