package io.chiplet.trino.session;

import io.trino.spi.resourcegroups.ResourceGroupId;
import io.trino.spi.session.SessionConfigurationContext;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SessionRulesTest
{
    private static final String RULES = """
            [
              {
                "sessionProperties": {"query_max_execution_time": "8h", "hive.insert_existing_partitions_behavior": "OVERWRITE"}
              },
              {
                "user": "bob.*",
                "source": "airflow",
                "clientTags": ["etl", "nightly"],
                "queryType": "insert",
                "group": "global\\\\.pipeline.*",
                "sessionProperties": {"query_max_execution_time": "1h", "max_hash_partition_count": 64},
                "catalogSessionProperties": {"iceberg": {"compression_codec": "ZSTD"}}
              }
            ]
            """;

    @Test
    void everyMatchingRuleContributesAndLaterOnesWin()
    {
        SessionRules rules = SessionRulesParser.parse(RULES, "rules.json");

        SessionRules.Resolved matching = rules.resolve(context("bobby", "airflow", Set.of("nightly", "etl", "extra"), "INSERT", "global.pipeline.load"));
        assertThat(matching.system()).isEqualTo(Map.of("query_max_execution_time", "1h", "max_hash_partition_count", "64"));
        assertThat(matching.catalogs()).isEqualTo(Map.of(
                "hive", Map.of("insert_existing_partitions_behavior", "OVERWRITE"),
                "iceberg", Map.of("compression_codec", "ZSTD")));
    }

    @Test
    void everyConditionMustHold()
    {
        SessionRules rules = SessionRulesParser.parse(RULES, "rules.json");
        Map<String, String> onlyFirst = Map.of("query_max_execution_time", "8h");

        assertThat(rules.resolve(context("alice", "airflow", Set.of("etl", "nightly"), "INSERT", "global.pipeline")).system()).isEqualTo(onlyFirst);
        assertThat(rules.resolve(context("bob", "cli", Set.of("etl", "nightly"), "INSERT", "global.pipeline")).system()).isEqualTo(onlyFirst);
        assertThat(rules.resolve(context("bob", "airflow", Set.of("etl"), "INSERT", "global.pipeline")).system()).isEqualTo(onlyFirst);
        assertThat(rules.resolve(context("bob", "airflow", Set.of("etl", "nightly"), "SELECT", "global.pipeline")).system()).isEqualTo(onlyFirst);
        assertThat(rules.resolve(context("bob", "airflow", Set.of("etl", "nightly"), "INSERT", "global.adhoc")).system()).isEqualTo(onlyFirst);
        // A source condition does not match a query without a source, as in Trino's manager (matched against "").
        assertThat(rules.resolve(new SessionConfigurationContext("bob", Optional.empty(), Set.of("etl", "nightly"), Optional.of("INSERT"), new ResourceGroupId(List.of("global.pipeline".split("\\."))))).system())
                .isEqualTo(onlyFirst);
    }

    @Test
    void parsesEveryFieldOfTheFileManagersFormat()
    {
        SessionRule rule = SessionRulesParser.parse(RULES, "rules.json").rules().get(1);

        assertThat(rule.user()).hasValueSatisfying(pattern -> assertThat(pattern.pattern()).isEqualTo("bob.*"));
        assertThat(rule.source()).hasValueSatisfying(pattern -> assertThat(pattern.pattern()).isEqualTo("airflow"));
        assertThat(rule.clientTags()).containsExactlyInAnyOrder("etl", "nightly");
        assertThat(rule.queryType()).hasValue("insert");
        assertThat(rule.group()).hasValueSatisfying(pattern -> assertThat(pattern.pattern()).isEqualTo("global\\.pipeline.*"));
        assertThat(rule.sessionProperties()).containsEntry("max_hash_partition_count", "64");
    }

    @Test
    void emptyArrayIsNoRules()
    {
        assertThat(SessionRulesParser.parse(" [ ] ", "rules.json").rules()).isEmpty();
    }

    @Test
    void badFilesAreNamedWithLineAndWhatWasExpected()
    {
        assertThatThrownBy(() -> SessionRulesParser.parse("{}", "etc/rules.json"))
                .hasMessage("etc/rules.json:1:1: expected an array of rules");
        assertThatThrownBy(() -> SessionRulesParser.parse("[\n  {\"usr\": \"bob\"}\n]", "etc/rules.json"))
                .hasMessage("etc/rules.json:2:4: expected one of the fields user, source, queryType, clientTags, group, sessionProperties, catalogSessionProperties, but found 'usr'");
        assertThatThrownBy(() -> SessionRulesParser.parse("[{\"user\": \"(bob\"}]", "etc/rules.json"))
                .hasMessageStartingWith("etc/rules.json:1:11: expected user to be a regular expression: Unclosed group");
        assertThatThrownBy(() -> SessionRulesParser.parse("[{\"sessionProperties\": {\"a\": {}}}]", "etc/rules.json"))
                .hasMessage("etc/rules.json:1:30: expected sessionProperties.a to be a string");
        assertThatThrownBy(() -> SessionRulesParser.parse("[{\"user\": \"bob\"", "etc/rules.json"))
                .hasMessageStartingWith("etc/rules.json:1:")
                .hasMessageContaining("not valid JSON");
        assertThatThrownBy(() -> SessionRulesParser.parse("[] []", "etc/rules.json"))
                .hasMessage("etc/rules.json:1:4: expected nothing after the array of rules");
    }

    private static SessionConfigurationContext context(String user, String source, Set<String> tags, String queryType, String group)
    {
        return new SessionConfigurationContext(user, Optional.of(source), tags, Optional.of(queryType), new ResourceGroupId(List.of(group.split("\\."))));
    }
}
