package io.chiplet.settings;

import io.chiplet.affinity.PinningBackend;
import io.chiplet.measure.GuardMode;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The settings whose value is one of an enum's constants ({@link Setting#choice}): parsed to the constant once, in core,
 * and a bad value's warning names the engine's key and lists every accepted name.
 */
class ChoiceSettingsTest
{
    /** Every choice setting, its constants in the order the warning lists them, and their names. */
    private record Choice<E extends Enum<E>>(Setting<E> setting, List<E> constants, Function<E, String> nameOf, String listed)
    {
        E parse(String value)
        {
            return setting.parse(value);
        }
    }

    private static final List<Choice<?>> CHOICES = List.of(
            new Choice<>(PluginSettings.MODE, List.of(PlacementMode.values()), PlacementMode::configName, "task, executor or auto"),
            new Choice<>(PluginSettings.PINNING_BACKEND, List.of(PinningBackend.Kind.values()), PinningBackend.Kind::configName, "ffm or openhft"),
            new Choice<>(PluginSettings.MEASURE_DESIGN, List.of(MeasureDesign.values()), MeasureDesign::configName, "window or task"),
            new Choice<>(PluginSettings.GUARD, List.of(GuardMode.values()), GuardMode::configName, "auto or always"));

    @Test
    void everyChoiceSettingParsesEachNameToItsConstant()
    {
        for (Choice<?> choice : CHOICES) {
            assertGoodValues(choice);
        }
    }

    private static <E extends Enum<E>> void assertGoodValues(Choice<E> choice)
    {
        for (E constant : choice.constants()) {
            String name = choice.nameOf().apply(constant);
            assertThat(choice.parse(name)).as(choice.setting().stem() + " = " + name).isEqualTo(constant);
            assertThat(choice.parse(" " + name.toUpperCase(Locale.ROOT) + " ")).as("in any case, blanks stripped").isEqualTo(constant);
        }
        assertThat(choice.setting().type()).isEqualTo(choice.constants().get(0).getDeclaringClass());
    }

    @Test
    void aBadValueNamesTheSettingAndListsEveryAcceptedName()
    {
        for (Choice<?> choice : CHOICES) {
            String key = "spark.chiplet." + choice.setting().stem();
            SettingsReader reader = new SettingsReader(Map.of(key, "sideways"));
            assertThatThrownBy(() -> reader.read(key, choice.setting()))
                    .isInstanceOf(InvalidSettingException.class)
                    .hasMessage("%s = 'sideways' is not usable: expected %s", key, choice.listed());
            for (Object constant : choice.constants()) {
                assertThat(choice.listed()).contains(((Enum<?>) constant).name().toLowerCase(Locale.ROOT).replace('_', '-'));
            }
        }
    }

    @Test
    void theChoicesAreListedAsASentenceSaysThem()
    {
        assertThat(SettingValues.choiceList(List.of("a"), Function.identity())).isEqualTo("a");
        assertThat(SettingValues.choiceList(List.of("a", "b"), Function.identity())).isEqualTo("a or b");
        assertThat(SettingValues.choiceList(List.of("a", "b", "c"), Function.identity())).isEqualTo("a, b or c");
        assertThatThrownBy(() -> SettingValues.choiceList(List.of(), Function.identity())).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aDefaultThatIsNotAChoiceIsRefusedWhereItIsDeclared()
    {
        assertThatThrownBy(() -> Setting.choice("mode", PlacementMode.class, PlacementMode.AUTO, List.of(PlacementMode.TASK), PlacementMode::configName, "test"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("AUTO");
    }

    @Test
    void thePinningBackendsNamesAreTheSettingsAndTheCommandLinesOnes()
    {
        for (PinningBackend.Kind kind : PinningBackend.Kind.values()) {
            assertThat(PluginSettings.PINNING_BACKEND.parse(kind.configName())).isEqualTo(kind);
        }
        assertThatThrownBy(() -> PinningBackend.fromName("jni")).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("expected ffm or openhft");
    }

    @Property
    void everyConstantRoundTripsThroughItsName(@ForAll("constants") Enum<?> constant)
    {
        Choice<?> choice = CHOICES.stream().filter(candidate -> candidate.constants().contains(constant)).findFirst().orElseThrow();
        assertThat(roundTrip(choice, constant)).isSameAs(constant);
    }

    @SuppressWarnings("unchecked")
    private static <E extends Enum<E>> E roundTrip(Choice<E> choice, Object constant)
    {
        return choice.parse(choice.nameOf().apply((E) constant));
    }

    @Property
    void aNameThatIsNoChoiceIsRejectedWithTheList(@ForAll("unknownNames") String value)
    {
        for (Choice<?> choice : CHOICES) {
            assertThatThrownBy(() -> choice.parse(value))
                    .isInstanceOfSatisfying(UnusableValueException.class, e -> assertThat(e.expected()).isEqualTo(choice.listed()));
        }
    }

    @Provide
    Arbitrary<Enum<?>> constants()
    {
        return Arbitraries.of(CHOICES.stream().<Enum<?>>flatMap(choice -> choice.constants().stream().map(constant -> (Enum<?>) constant)).toList());
    }

    @Provide
    Arbitrary<String> unknownNames()
    {
        // Letters only, but never one of the choices' names (in any case).
        return Arbitraries.strings().withCharRange('a', 'z').ofMinLength(0).ofMaxLength(10)
                .filter(value -> CHOICES.stream().noneMatch(choice -> choice.constants().stream()
                        .anyMatch(constant -> ((Enum<?>) constant).name().equalsIgnoreCase(value))));
    }
}
