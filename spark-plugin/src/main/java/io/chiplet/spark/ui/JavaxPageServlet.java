package io.chiplet.spark.ui;

import javax.servlet.http.HttpServlet;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;

import java.io.IOException;
import java.util.function.Supplier;

/** The tab's page for Spark 3.5 (Jetty 9 with {@code javax.servlet}); loaded only there. */
final class JavaxPageServlet
        extends HttpServlet
{
    private static final long serialVersionUID = 1;
    private final transient Supplier<String> html;

    JavaxPageServlet(Supplier<String> html)
    {
        this.html = html;
    }

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response)
            throws IOException
    {
        String uri = request.getRequestURI();
        int docs = uri.indexOf("/docs/");
        if (docs >= 0) {
            // The docs pages the page links to, from the jar: they work where no network does.
            java.util.Optional<String> page = ChipletDocs.page(uri.substring(docs + "/docs/".length()));
            if (page.isEmpty()) {
                response.sendError(HttpServletResponse.SC_NOT_FOUND);
                return;
            }
            response.setContentType("text/plain;charset=utf-8");
            response.getWriter().write(page.get());
            return;
        }
        response.setContentType("text/html;charset=utf-8");
        response.setStatus(HttpServletResponse.SC_OK);
        response.getWriter().write(html.get());
    }
}
