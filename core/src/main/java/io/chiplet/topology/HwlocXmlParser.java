package io.chiplet.topology;

import org.w3c.dom.Document;
import org.xml.sax.ErrorHandler;
import org.xml.sax.SAXException;
import org.xml.sax.SAXParseException;

import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilder;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Parses an hwloc XML file into a DOM with a parser that never fetches anything: lstopo writes
 * {@code <!DOCTYPE topology SYSTEM "hwloc2.dtd">}, which must be neither loaded nor trusted, and no external entity
 * may be resolved.
 */
final class HwlocXmlParser
{
    private HwlocXmlParser() {}

    /** @throws TopologyException naming the file when it cannot be read or is not well-formed XML */
    static Document parse(Path file)
    {
        DocumentBuilder builder = newDocumentBuilder();
        try (InputStream in = Files.newInputStream(file)) {
            return builder.parse(in, file.toUri().toString());
        }
        catch (SAXParseException e) {
            throw new TopologyException("expected hwloc XML in " + file + " but line " + e.getLineNumber() + " is not well-formed: " + oneLine(e.getMessage()), e);
        }
        catch (SAXException e) {
            throw new TopologyException("expected hwloc XML in " + file + " but it could not be parsed: " + oneLine(e.getMessage()), e);
        }
        catch (IOException e) {
            throw new TopologyException("cannot read hwloc XML file " + file + ": " + oneLine(e.toString()), e);
        }
    }

    /** A parser's message on one line, its non-ASCII escaped (it may quote the file). */
    private static String oneLine(String message)
    {
        String quoted = FileText.quote(String.valueOf(message));
        return quoted.substring(1, quoted.lastIndexOf('"'));
    }

    private static DocumentBuilder newDocumentBuilder()
    {
        try {
            DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
            factory.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
            factory.setFeature("http://apache.org/xml/features/nonvalidating/load-external-dtd", false);
            factory.setFeature("http://xml.org/sax/features/external-general-entities", false);
            factory.setFeature("http://xml.org/sax/features/external-parameter-entities", false);
            // an internal DTD subset may still declare entities: secure processing caps their expansion (billion laughs),
            // and these caps are far below its defaults, since hwloc XML uses no entity at all
            factory.setAttribute("http://www.oracle.com/xml/jaxp/properties/entityExpansionLimit", "1000");
            factory.setAttribute("http://www.oracle.com/xml/jaxp/properties/totalEntitySizeLimit", "100000");
            factory.setAttribute(XMLConstants.ACCESS_EXTERNAL_DTD, "");
            factory.setAttribute(XMLConstants.ACCESS_EXTERNAL_SCHEMA, "");
            factory.setXIncludeAware(false);
            factory.setExpandEntityReferences(false);
            factory.setNamespaceAware(false);
            factory.setValidating(false);
            DocumentBuilder builder = factory.newDocumentBuilder();
            // the default handler prints every parse error to stderr before it is thrown; the exception says it all
            builder.setErrorHandler(new ThrowingErrorHandler());
            return builder;
        }
        catch (ParserConfigurationException e) {
            throw new IllegalStateException("the JDK's XML parser does not support secure processing", e);
        }
    }

    private static final class ThrowingErrorHandler
            implements ErrorHandler
    {
        @Override
        public void warning(SAXParseException exception) {}

        @Override
        public void error(SAXParseException exception)
                throws SAXParseException
        {
            throw exception;
        }

        @Override
        public void fatalError(SAXParseException exception)
                throws SAXParseException
        {
            throw exception;
        }
    }
}
