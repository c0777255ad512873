package io.chiplet.trino.skew;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class QueryShapeTest
{
    @Test
    void literalsWhitespaceCaseAndCommentsDoNotChangeTheShape()
    {
        String shape = QueryShape.fingerprint("SELECT * FROM orders WHERE orderkey = 42 AND comment = 'it''s'");
        assertThat(QueryShape.fingerprint("select *\n  from   Orders -- today\n where ORDERKEY = 7 and comment = 'other'")).isEqualTo(shape);
        assertThat(QueryShape.fingerprint("/* dashboard */ SELECT * FROM orders WHERE orderkey = 3.5e2 AND comment = ''")).isEqualTo(shape);
        assertThat(shape).hasSize(16).matches("[0-9a-f]{16}");
    }

    @Test
    void otherStatementsAndQuotedNamesDiffer()
    {
        String shape = QueryShape.fingerprint("SELECT * FROM orders WHERE orderkey = 42");
        assertThat(QueryShape.fingerprint("SELECT * FROM lineitem WHERE orderkey = 42")).isNotEqualTo(shape);
        assertThat(QueryShape.fingerprint("SELECT * FROM orders WHERE orderkey > 42")).isNotEqualTo(shape);
        // Quoted identifiers keep their case; names ending in digits are names, not numbers.
        assertThat(QueryShape.normalise("SELECT \"Mixed\", col1 FROM t2 WHERE x = 10")).isEqualTo("select \"Mixed\", col1 from t2 where x = ?");
        assertThat(QueryShape.normalise("SELECT 'a -- not a comment', \"b\"\"c\" FROM t")).isEqualTo("select ?, \"b\"\"c\" from t");
    }
}
