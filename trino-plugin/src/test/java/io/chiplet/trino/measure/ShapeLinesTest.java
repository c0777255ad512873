package io.chiplet.trino.measure;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class ShapeLinesTest
{
    @Test
    void aStratumsShapeIsTheTextBeforeItsShare()
    {
        assertThat(ShapeLines.shapeOf("3f0c9a1e, 1 in 2")).isEqualTo("3f0c9a1e");
        assertThat(ShapeLines.shapeOf("3f0c9a1e")).isEqualTo("3f0c9a1e");
    }

    @Test
    void aTextIsShownOnOneLineOfAtMostSixtyCharacters()
    {
        assertThat(ShapeLines.abbreviate("  SELECT *\n\tFROM t  ")).isEqualTo("SELECT * FROM t");
        String longText = "SELECT " + "x, ".repeat(40) + "y FROM t";
        assertThat(ShapeLines.abbreviate(longText)).hasSize(60).endsWith("...").startsWith("SELECT x, x,");
    }

    @Test
    void textsAreKeptForAtMostSoManyShapesTheFirstOfEach()
    {
        QueryTexts texts = new QueryTexts();
        texts.remember("a", "SELECT 1");
        texts.remember("a", "SELECT 2");
        assertThat(texts.of("a")).isEqualTo("SELECT 1");
        for (int i = 1; i < QueryTexts.MAX_SHAPES_NAMED; i++) {
            texts.remember("shape " + i, "SELECT " + i);
        }
        texts.remember("one too many", "SELECT 0");
        assertThat(texts.of("shape " + (QueryTexts.MAX_SHAPES_NAMED - 1))).isEqualTo("SELECT " + (QueryTexts.MAX_SHAPES_NAMED - 1));
        assertThat(texts.of("one too many")).isEmpty();
    }
}
