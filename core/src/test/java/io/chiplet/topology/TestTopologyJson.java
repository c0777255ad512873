package io.chiplet.topology;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static io.chiplet.topology.HandBuiltTopologies.cgroupRestricted;
import static io.chiplet.topology.HandBuiltTopologies.dualEpycMilan;
import static io.chiplet.topology.HandBuiltTopologies.hybridLaptop;
import static io.chiplet.topology.HandBuiltTopologies.snc2Interleaved;
import static io.chiplet.topology.HandBuiltTopologies.tiny;
import static org.assertj.core.api.Assertions.assertThat;

class TestTopologyJson
{
    @Test
    void writesTheContractInOrderThenTheExtraFields()
    {
        assertThat(TopologyJson.toJson(tiny())).isEqualTo("""
                {
                  "schema": "chiplet.topology/v1",
                  "source": "hwloc-xml:tiny.xml",
                  "cpus": {
                    "online": "0-3",
                    "allowed": "0-1",
                    "present": "0-3",
                    "offline": ""
                  },
                  "packages": [
                    {
                      "id": 0,
                      "cpus": "0-3"
                    }
                  ],
                  "numaNodes": [
                    {
                      "id": 0,
                      "cpus": "0-3",
                      "memoryBytes": 8589934592,
                      "distances": {
                        "0": 10,
                        "1": 20
                      },
                      "localCpus": "0-3",
                      "memoryKind": "dram"
                    },
                    {
                      "id": 1,
                      "cpus": "",
                      "memoryBytes": null,
                      "distances": {
                        "0": 20,
                        "1": 10
                      },
                      "localCpus": "",
                      "memoryKind": "unknown"
                    }
                  ],
                  "caches": [
                    {
                      "level": 2,
                      "cpus": "0,2",
                      "sizeBytes": 1048576,
                      "type": "unified",
                      "lineSizeBytes": 64
                    },
                    {
                      "level": 2,
                      "cpus": "1,3",
                      "sizeBytes": 1048576,
                      "type": "unified",
                      "lineSizeBytes": 64
                    },
                    {
                      "level": 3,
                      "cpus": "0-3",
                      "sizeBytes": 16777216,
                      "type": "unified",
                      "lineSizeBytes": 64
                    }
                  ],
                  "cores": [
                    {
                      "cpus": "0,2",
                      "kind": null,
                      "package": 0,
                      "coreId": 0
                    },
                    {
                      "cpus": "1,3",
                      "kind": null,
                      "package": 0,
                      "coreId": 1
                    }
                  ],
                  "coreKinds": [],
                  "chiplets": [
                    {
                      "id": 0,
                      "package": 0,
                      "numaNode": 0,
                      "cpus": "0-3",
                      "l3Bytes": 16777216,
                      "basis": "l3"
                    }
                  ],
                  "l3Placement": "used",
                  "allowedNumaNodes": "0-1",
                  "packagesWithoutId": [],
                  "dies": [
                    {
                      "package": 0,
                      "id": 0,
                      "cpus": "0-3"
                    }
                  ],
                  "clusters": [],
                  "unknowns": [
                    "no memory size for NUMA node 1"
                  ]
                }
                """);
    }

    @Test
    void dualEpycFieldByField()
            throws IOException
    {
        Map<String, Object> json = parse(TopologyJson.toJson(dualEpycMilan()));

        assertThat(json).containsEntry("schema", "chiplet.topology/v1").containsEntry("source", "sysfs:/");
        assertThat(json.keySet()).startsWith("schema", "source", "cpus", "packages", "numaNodes", "caches", "cores", "coreKinds", "chiplets");
        assertThat(object(json, "cpus")).containsEntry("online", "0-255").containsEntry("allowed", "0-255").containsEntry("offline", "");

        List<Map<String, Object>> packages = array(json, "packages");
        assertThat(packages).extracting(p -> p.get("cpus")).containsExactly("0-63,128-191", "64-127,192-255");

        List<Map<String, Object>> nodes = array(json, "numaNodes");
        assertThat(nodes).hasSize(2);
        assertThat(nodes.get(1)).containsEntry("id", 1L).containsEntry("memoryBytes", 256L << 30);
        assertThat(object(nodes.get(1), "distances")).containsExactly(Map.entry("0", 32L), Map.entry("1", 10L));

        // L1 is not in the contract: 128 L2 + 16 L3 instances.
        List<Map<String, Object>> caches = array(json, "caches");
        assertThat(caches).hasSize(128 + 16);
        assertThat(caches).filteredOn(c -> c.get("level").equals(3L))
                .extracting(c -> c.get("cpus"))
                .startsWith("0-7,128-135", "8-15,136-143")
                .endsWith("120-127,248-255");
        assertThat(caches).filteredOn(c -> c.get("level").equals(3L)).allSatisfy(c -> assertThat(c).containsEntry("sizeBytes", 32L << 20));

        List<Map<String, Object>> cores = array(json, "cores");
        assertThat(cores).hasSize(128);
        assertThat(cores.get(70)).containsEntry("cpus", "70,198").containsEntry("package", 1L).containsEntry("coreId", 6L).containsEntry("kind", null);
        assertThat(array(json, "coreKinds")).isEmpty();

        List<Map<String, Object>> chiplets = array(json, "chiplets");
        assertThat(chiplets).hasSize(16);
        assertThat(chiplets.get(9)).containsExactly(
                Map.entry("id", 9L),
                Map.entry("package", 1L),
                Map.entry("numaNode", 1L),
                Map.entry("cpus", "72-79,200-207"),
                Map.entry("l3Bytes", 32L << 20),
                Map.entry("basis", "l3"));
    }

    @Test
    void hybridKindsMostPerformantFirst()
            throws IOException
    {
        Map<String, Object> json = parse(TopologyJson.toJson(hybridLaptop()));

        assertThat(array(json, "coreKinds")).extracting(k -> k.get("name") + "=" + k.get("cpus"))
                .containsExactly("performance=0-11", "efficiency=12-19");
        assertThat(array(json, "cores")).extracting(c -> c.get("kind") + ":" + c.get("cpus"))
                .startsWith("performance:0-1")
                .endsWith("efficiency:19");
        assertThat(array(json, "clusters")).extracting(c -> c.get("cpus")).containsExactly("12-15", "16-19");
    }

    @Test
    void sncChipletsAndCpulessNode()
            throws IOException
    {
        Map<String, Object> json = parse(TopologyJson.toJson(snc2Interleaved()));

        assertThat(array(json, "chiplets")).extracting(c -> c.get("numaNode") + ":" + c.get("cpus") + ":" + c.get("basis"))
                .containsExactly(
                        "0:0,2,4,6,8,10,12,14:l3+numa",
                        "2:1,3,5,7,9,11,13,15:l3+numa",
                        "1:16,18,20,22,24,26,28,30:l3+numa",
                        "3:17,19,21,23,25,27,29,31:l3+numa");
        assertThat(array(json, "numaNodes").get(4)).containsEntry("id", 4L).containsEntry("cpus", "");
    }

    @Test
    void cgroupAllowedAndOffline()
            throws IOException
    {
        Map<String, Object> json = parse(TopologyJson.toJson(cgroupRestricted()));

        assertThat(object(json, "cpus")).containsExactly(
                Map.entry("online", "0-30"),
                Map.entry("allowed", "8-15,24-27"),
                Map.entry("present", "0-31"),
                Map.entry("offline", "31"));
        assertThat(json).containsEntry("allowedNumaNodes", "0-7");
    }

    @Test
    void allowedNumaNodesAreANodeList()
            throws IOException
    {
        // a cgroup whose cpuset.mems is 2-3,6: memory is bound only to those nodes
        Map<String, Object> json = parse(TopologyJson.toJson(cgroupRestricted().withAllowedMemoryNodes(java.util.Set.of(2, 3, 6))));

        assertThat(json).containsEntry("allowedNumaNodes", "2-3,6");
        assertThat(array(json, "numaNodes")).hasSize(8);
    }

    private static Map<String, Object> parse(String text)
            throws IOException
    {
        try (JsonParser parser = new JsonFactory().createParser(text)) {
            assertThat(parser.nextToken()).isEqualTo(JsonToken.START_OBJECT);
            Map<String, Object> value = readObject(parser);
            assertThat(parser.nextToken()).isNull();
            return value;
        }
    }

    private static Map<String, Object> readObject(JsonParser parser)
            throws IOException
    {
        Map<String, Object> object = new LinkedHashMap<>();
        while (parser.nextToken() == JsonToken.FIELD_NAME) {
            String name = parser.currentName();
            assertThat(object).as("duplicate field %s", name).doesNotContainKey(name);
            parser.nextToken();
            object.put(name, readValue(parser));
        }
        return object;
    }

    private static Object readValue(JsonParser parser)
            throws IOException
    {
        return switch (parser.currentToken()) {
            case START_OBJECT -> readObject(parser);
            case START_ARRAY -> {
                List<Object> list = new ArrayList<>();
                while (parser.nextToken() != JsonToken.END_ARRAY) {
                    list.add(readValue(parser));
                }
                yield list;
            }
            case VALUE_STRING -> parser.getText();
            case VALUE_NUMBER_INT -> parser.getLongValue();
            case VALUE_NULL -> null;
            case VALUE_TRUE, VALUE_FALSE -> parser.getBooleanValue();
            default -> throw new AssertionError("unexpected token " + parser.currentToken());
        };
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> object(Map<String, Object> json, String field)
    {
        assertThat(json).containsKey(field);
        return (Map<String, Object>) json.get(field);
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> array(Map<String, Object> json, String field)
    {
        assertThat(json).containsKey(field);
        return (List<Map<String, Object>>) json.get(field);
    }
}
