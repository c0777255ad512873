package io.chiplet.spark.tpch;

import io.trino.tpch.TpchTable;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class TpchTablesTest
{
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
