package io.chiplet.wire;

import net.jqwik.api.Assume;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.DoubleRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class WireMessageTest
{
    @Property(seed = "20261128")
    void everyFieldComesBackExactlyAsWritten(@ForAll String text, @ForAll long number, @ForAll int integer, @ForAll @DoubleRange(min = 0, max = 1) double share,
            @ForAll @Size(max = 8) Set<Integer> ids, @ForAll @Size(max = 8) Set<String> texts, @ForAll @Size(max = 8) Map<Integer, Long> entries)
    {
        // a lone surrogate is no text (it has no UTF-8 form); executor ids, hosts and paths never hold one
        Assume.that(wellFormed(text) && texts.stream().allMatch(WireMessageTest::wellFormed));
        String encoded = WireMessage.writer("kind").text(text).number(number).number(integer).share(share).ids(ids).texts(texts).entries(entries).word("yes").encode();
        WireMessage message = WireMessage.parse(encoded).expect("text", "number", "integer", "share", "ids", "texts", "entries", "word");
        assertThat(message.kind()).isEqualTo("kind");
        assertThat(message.text(0, "text")).isEqualTo(text);
        assertThat(message.number(1, "number")).isEqualTo(number);
        assertThat(message.integer(2, "integer")).isEqualTo(integer);
        // bit for bit: the share that went out is the share that comes back
        assertThat(Double.doubleToLongBits(message.share(3, "share"))).isEqualTo(Double.doubleToLongBits(share));
        assertThat(message.ids(4, "ids")).isEqualTo(new TreeSet<>(ids));
        assertThat(message.texts(5, "texts")).isEqualTo(new TreeSet<>(texts));
        assertThat(message.entries(6, "entries")).isEqualTo(entries);
        assertThat(message.word(7, "word", Map.of("yes", true, "no", false))).isTrue();
    }

    private static boolean wellFormed(String text)
    {
        return text.codePoints().noneMatch(point -> point >= Character.MIN_SURROGATE && point <= Character.MAX_SURROGATE);
    }

    @Test
    void aControlShareOf0point3ComesBackAs0point3()
    {
        // chiplet/1 sent "%.6f" one way and a block size the other, which decoded as 1/3
        String encoded = WireMessage.writer("directive").share(0.3).encode();
        assertThat(encoded).isEqualTo("chiplet/2\tdirective\t0.3");
        assertThat(WireMessage.parse(encoded).share(0, "control share")).isEqualTo(0.3);
    }

    @Test
    void badInputFailsNamingTheMessageAndTheField()
    {
        assertThatThrownBy(() -> WireMessage.parse(7)).isInstanceOf(WireFormatException.class).hasMessage("not a chiplet plugin message: java.lang.Integer");
        assertThatThrownBy(() -> WireMessage.parse("chiplet/1\tdirective\t0.3")).hasMessage("not a chiplet/2 message: chiplet/1 directive 0.3");
        WireMessage message = WireMessage.parse("chiplet/2\tdirective\t1.5\tmaybe\tx,,y\t3:1,x\t%zz");
        assertThatThrownBy(() -> message.expect("control share", "placing"))
                .hasMessage("malformed directive message (expected 2 fields (control share, placing), got 5): chiplet/2 directive 1.5 maybe x,,y 3:1,x %zz");
        assertThatThrownBy(() -> message.share(0, "control share"))
                .hasMessageStartingWith("malformed directive message (field control share: expected a share from 0 to 1, got '1.5')");
        assertThatThrownBy(() -> message.word(1, "placing", Map.of("placing", true)))
                .hasMessageStartingWith("malformed directive message (field placing: expected one of [placing], got 'maybe')");
        assertThatThrownBy(() -> message.ids(2, "chiplets")).hasMessageStartingWith("malformed directive message (field chiplets: expected comma-separated whole numbers");
        assertThatThrownBy(() -> message.entries(3, "tasks by chiplet")).hasMessageStartingWith("malformed directive message (field tasks by chiplet: expected");
        assertThatThrownBy(() -> message.text(4, "executor")).hasMessageStartingWith("malformed directive message (field executor: expected URL-encoded text, got '%zz')");
        assertThatThrownBy(() -> message.number(9, "tasks")).hasMessageStartingWith("malformed directive message (no field tasks: 5 fields)");
        assertThat(((WireFormatException) org.assertj.core.api.Assertions.catchThrowable(() -> message.number(0, "tasks"))).unreadable().why())
                .startsWith("malformed directive message (field tasks: expected a whole number, got '1.5')");
    }

    @Test
    void whatCannotTravelIsRefusedWhenWritten()
    {
        assertThatThrownBy(() -> WireMessage.writer("directive").share(Double.NaN)).hasMessage("expected a share from 0 to 1, got NaN");
        assertThatThrownBy(() -> WireMessage.writer("directive").word("two words")).hasMessage("expected a word, got 'two words'");
        assertThatThrownBy(() -> WireMessage.writer("a\tb")).hasMessage("expected a kind without tabs, got 'a\tb'");
        assertThatThrownBy(() -> WireMessage.writer("arms").raw("1\t2")).hasMessageStartingWith("a field holds no tab");
        assertThat(WireMessage.writer("hints").ids(List.of(3, 1)).encode()).isEqualTo("chiplet/2\thints\t1,3");
    }
}
