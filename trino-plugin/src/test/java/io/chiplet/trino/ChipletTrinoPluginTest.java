package io.chiplet.trino;

import io.trino.spi.eventlistener.EventListenerFactory;
import io.trino.spi.session.SessionPropertyConfigurationManagerFactory;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class ChipletTrinoPluginTest
{
    @Test
    void offersTheCoordinatorPartsUnderTheNameTheirPropertyFilesUse()
    {
        ChipletTrinoPlugin plugin = new ChipletTrinoPlugin();

        assertThat(plugin.getSessionPropertyConfigurationManagerFactories())
                .extracting(SessionPropertyConfigurationManagerFactory::getName)
                .containsExactly("chiplet");
        assertThat(plugin.getEventListenerFactories())
                .extracting(EventListenerFactory::getName)
                .containsExactly("chiplet");
    }
}
