package io.threadlab.experiment.analyse;

import javax.imageio.ImageIO;
import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * The few drawing operations the lab's pictures need (the lane picture, the findings page's), so that one drawing
 * routine writes both an SVG (for the report, the docs and browsers) and a PNG (for anything that shows pictures but
 * not SVG). The SVG's numbers are written the same on every machine, so a picture drawn from the same data is the same
 * file.
 */
public interface Canvas {

    void rect(double x, double y, double w, double h, String color);

    void line(double x1, double y1, double x2, double y2, String color);

    void text(double x, double y, String text, int size, String color, boolean bold, boolean alignRight);

    /** Text centred on {@code x}. */
    void centred(double x, double y, String text, int size, String color, boolean bold);

    void circle(double x, double y, double r, String color);

    void save(Path file) throws IOException;

    final class Svg implements Canvas {
        private final StringBuilder body = new StringBuilder();
        private final int width;
        private final int height;

        public Svg(int width, int height) {
            this.width = width;
            this.height = height;
        }

        @Override
        public void rect(double x, double y, double w, double h, String color) {
            body.append(String.format(Locale.ROOT, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.2f\" height=\"%.1f\""
                    + " fill=\"%s\"/>\n", x, y, Math.max(w, 0.5), h, color));
        }

        @Override
        public void line(double x1, double y1, double x2, double y2, String color) {
            body.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\""
                    + " stroke=\"%s\" stroke-width=\"1\"/>\n", x1, y1, x2, y2, color));
        }

        @Override
        public void text(double x, double y, String text, int size, String color, boolean bold, boolean alignRight) {
            text(x, y, text, size, color, bold, alignRight ? "end" : null);
        }

        @Override
        public void centred(double x, double y, String text, int size, String color, boolean bold) {
            text(x, y, text, size, color, bold, "middle");
        }

        private void text(double x, double y, String text, int size, String color, boolean bold, String anchor) {
            body.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"%d\" fill=\"%s\"%s%s>%s"
                    + "</text>\n", x, y, size, color, bold ? " font-weight=\"bold\"" : "",
                    anchor == null ? "" : " text-anchor=\"" + anchor + "\"", escape(text)));
        }

        @Override
        public void circle(double x, double y, double r, String color) {
            body.append(String.format(Locale.ROOT, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"%.1f\" fill=\"%s\"/>\n", x, y, r,
                    color));
        }

        @Override
        public void save(Path file) throws IOException {
            Files.writeString(file, svg());
        }

        public String svg() {
            return String.format(Locale.ROOT, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\""
                    + " viewBox=\"0 0 %d %d\" ", width, height, width, height)
                    + "font-family=\"DejaVu Sans, Helvetica, Arial, sans-serif\">\n"
                    + "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n" + body + "</svg>\n";
        }

        private static String escape(String s) {
            return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
        }
    }

    final class Png implements Canvas {
        private final BufferedImage image;
        private final Graphics2D g;

        Png(int width, int height) {
            image = new BufferedImage(width, height, BufferedImage.TYPE_INT_RGB);
            g = image.createGraphics();
            g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
            g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
            g.setColor(Color.WHITE);
            g.fillRect(0, 0, width, height);
            g.setStroke(new BasicStroke(1f));
        }

        @Override
        public void rect(double x, double y, double w, double h, String color) {
            g.setColor(Color.decode(color));
            g.fill(new java.awt.geom.Rectangle2D.Double(x, y, Math.max(w, 0.5), h));
        }

        @Override
        public void line(double x1, double y1, double x2, double y2, String color) {
            g.setColor(Color.decode(color));
            g.draw(new java.awt.geom.Line2D.Double(x1, y1, x2, y2));
        }

        @Override
        public void text(double x, double y, String text, int size, String color, boolean bold, boolean alignRight) {
            g.setColor(Color.decode(color));
            g.setFont(new Font(Font.SANS_SERIF, bold ? Font.BOLD : Font.PLAIN, size));
            float left = (float) (alignRight ? x - g.getFontMetrics().stringWidth(text) : x);
            g.drawString(text, left, (float) y);
        }

        @Override
        public void centred(double x, double y, String text, int size, String color, boolean bold) {
            g.setFont(new Font(Font.SANS_SERIF, bold ? Font.BOLD : Font.PLAIN, size));
            text(x + g.getFontMetrics().stringWidth(text) / 2.0, y, text, size, color, bold, true);
        }

        @Override
        public void circle(double x, double y, double r, String color) {
            g.setColor(Color.decode(color));
            g.fill(new java.awt.geom.Ellipse2D.Double(x - r, y - r, 2 * r, 2 * r));
        }

        @Override
        public void save(Path file) throws IOException {
            g.dispose();
            ImageIO.write(image, "png", file.toFile());
        }
    }
}
