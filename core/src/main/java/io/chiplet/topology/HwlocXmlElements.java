package io.chiplet.topology;

import org.w3c.dom.Element;
import org.w3c.dom.Node;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

import static java.util.Objects.requireNonNull;

/**
 * Reads the elements and attributes of one hwloc XML file; every value that is missing or malformed is a
 * {@link TopologyException} naming the file, the element, the attribute, what was expected and what it held.
 */
final class HwlocXmlElements
{
    private static final Pattern WHITESPACE = Pattern.compile("\\s+");

    private final Path file;

    HwlocXmlElements(Path file)
    {
        this.file = requireNonNull(file, "file is null");
    }

    /** The file, for the messages of the readers of its parts. */
    Path file()
    {
        return file;
    }

    /** The direct children of {@code parent} named {@code name}, in document order. */
    static List<Element> children(Element parent, String name)
    {
        List<Element> children = new ArrayList<>();
        for (Node child = parent.getFirstChild(); child != null; child = child.getNextSibling()) {
            if (child instanceof Element element && element.getTagName().equals(name)) {
                children.add(element);
            }
        }
        return children;
    }

    static String attributeOr(Element element, String attribute, String fallback)
    {
        return element.hasAttribute(attribute) ? attribute : fallback;
    }

    /** The element as a message names it: its tag, type and os_index. */
    static String describe(Element element)
    {
        String type = element.getAttribute("type");
        return "<" + element.getTagName() + (type.isEmpty() ? "" : " type=" + FileText.quote(type))
                + (element.hasAttribute("os_index") ? " os_index=" + FileText.quote(element.getAttribute("os_index")) : "") + ">";
    }

    HwlocBitmap bitmap(Element element, String attribute)
    {
        try {
            return HwlocBitmap.parse(element.getAttribute(attribute));
        }
        catch (IllegalArgumentException e) {
            throw new TopologyException(describe(element) + " attribute " + attribute + " in " + file + ": " + e.getMessage(), e);
        }
    }

    int osIndex(Element element)
    {
        int index = intAttribute(element, "os_index");
        if (index < 0) {
            throw invalid(element, "os_index", "a non-negative index");
        }
        return index;
    }

    int intAttribute(Element element, String attribute)
    {
        long value = longAttribute(element, attribute);
        if (value < Integer.MIN_VALUE || value > Integer.MAX_VALUE) {
            throw invalid(element, attribute, "an integer of at most " + Integer.MAX_VALUE);
        }
        return (int) value;
    }

    long longAttribute(Element element, String attribute)
    {
        try {
            return Long.parseLong(element.getAttribute(attribute).strip());
        }
        catch (NumberFormatException e) {
            throw invalid(element, attribute, "an integer");
        }
    }

    double doubleAttribute(Element element, String attribute)
    {
        try {
            return Double.parseDouble(element.getAttribute(attribute).strip());
        }
        catch (NumberFormatException e) {
            throw invalid(element, attribute, "a number");
        }
    }

    /** The whitespace-separated integers of the {@code childName} children of {@code parent}, in order. */
    List<Long> numbers(Element parent, String childName)
    {
        List<Long> numbers = new ArrayList<>();
        for (Element child : children(parent, childName)) {
            for (String token : WHITESPACE.split(child.getTextContent().strip())) {
                if (token.isEmpty()) {
                    continue;
                }
                try {
                    numbers.add(Long.parseLong(token));
                }
                catch (NumberFormatException e) {
                    throw new TopologyException("expected whitespace-separated integers in <" + childName + "> of " + file + " but found " + FileText.quote(token), e);
                }
            }
        }
        return numbers;
    }

    /** {@code value} as an int, where {@code where} (an element) holds a non-negative integer. */
    int toInt(long value, String where)
    {
        if (value < 0 || value > Integer.MAX_VALUE) {
            throw new TopologyException("expected integers from 0 to " + Integer.MAX_VALUE + " in " + where + " of " + file + " but found " + value);
        }
        return (int) value;
    }

    TopologyException invalid(Element element, String attribute, String expected)
    {
        String found = element.hasAttribute(attribute) ? FileText.quote(element.getAttribute(attribute)) : "nothing";
        return new TopologyException("expected " + expected + " as attribute " + attribute + " of " + describe(element) + " in " + file + " but found " + found);
    }
}
