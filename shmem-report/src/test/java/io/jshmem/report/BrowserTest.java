/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.image.BufferedImage;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The report of {@link JobFixture}'s job loaded in headless Chromium (Debian's package
 * {@code chromium}): no script error, the timeline drawn with one lane per PE, in the DOM and on a
 * screenshot. Skips, saying why, without Chromium.
 */
class BrowserTest {
    /** Chromium starts in a second or two; far more means it hangs (no display, sandbox). */
    private static final long GUARD_SECONDS = 180;
    private static final String WINDOW = "1280,1000";

    @TempDir
    Path tmp;

    private static String chromium() {
        for (String name : List.of("chromium", "chromium-browser", "google-chrome")) {
            for (String dir : System.getenv().getOrDefault("PATH", "/usr/bin").split(File.pathSeparator)) {
                if (Files.isExecutable(Path.of(dir, name))) {
                    return Path.of(dir, name).toString();
                }
            }
        }
        return null;
    }

    private List<String> chromium(String browser, String... args) {
        List<String> c = new ArrayList<>(List.of(browser, "--headless", "--no-sandbox", "--disable-gpu",
                "--hide-scrollbars", "--force-device-scale-factor=1", "--window-size=" + WINDOW,
                "--user-data-dir=" + tmp.resolve("profile")));
        c.addAll(List.of(args));
        return c;
    }

    @Test
    void pageLoadsWithoutErrorsAndDrawsOneLanePerPe() throws Exception {
        String browser = chromium();
        if (browser == null) {
            System.out.println("BrowserTest skipped: no chromium on the PATH (Debian: apt-get install chromium)");
        }
        Assumptions.assumeTrue(browser != null, "no chromium on the PATH (Debian: apt-get install chromium)");
        JobFixture job = JobFixture.get();
        String url = job.report.toUri().toString();

        // #selftest: the page hovers over PE 2's first barrier, zooms in and back (see page.html)
        Commands.Result dom = Commands.run(tmp, GUARD_SECONDS, chromium(browser, "--virtual-time-budget=5000", "--dump-dom",
                url + "#selftest"));
        assertEquals(0, dom.status(), dom.err());
        String html = dom.out();
        String body = between(html, "<body", ">");
        assertTrue(body.contains("data-drawn=\"1\""), "the page's script ran to its end: " + head(html));
        assertTrue(body.contains("data-tooltip=\"PE 2: sync barrier_all\nteam SHMEM_TEAM_WORLD #1\n")
                || body.contains("data-tooltip=\"PE 2: sync barrier_all&#10;team SHMEM_TEAM_WORLD #1&#10;"), "hover: " + body);
        assertTrue(body.contains("data-zoom=\"in-and-back\""), "wheel zoom and double-click: " + body);
        assertFalse(between(html, "<body", ">").contains("data-errors"), "script errors: " + between(html, "<pre id=\"errors\"", "</pre>"));
        assertTrue(html.contains("<pre id=\"errors\" hidden=\"\"></pre>"), between(html, "<pre id=\"errors\"", "</pre>"));
        Matcher canvas = Pattern.compile("<canvas id=\"timeline\"[^>]*>").matcher(html);
        assertTrue(canvas.find(), "no timeline canvas");
        String tag = canvas.group();
        assertEquals(Integer.toString(JobFixture.NPES), attribute(tag, "data-lanes"), tag);
        assertTrue(Integer.parseInt(attribute(tag, "data-drawn")) > 4 * ReportJob.BARRIERS, tag);
        assertTrue(html.contains("PE 2 was last at 75% of barriers/syncs (15 of 20)"), "the summary is shown");
        // the traffic table: a header row and one row per PE
        String traffic = between(html, "<table id=\"trafficTable\">", "</table>");
        assertEquals(1 + JobFixture.NPES, traffic.split("<tr", -1).length - 1, traffic);

        Path png = tmp.resolve("report.png");
        Commands.Result shot = Commands.run(tmp, GUARD_SECONDS,
                chromium(browser, "--virtual-time-budget=5000", "--screenshot=" + png, url));
        assertEquals(0, shot.status(), shot.err());
        BufferedImage image = ImageIO.read(png.toFile());
        assertTrue(image != null && image.getWidth() > 100, "no screenshot at " + png);
        String[] rect = attribute(tag, "data-rect").split(",");
        int left = Integer.parseInt(rect[0]);
        int top = Integer.parseInt(rect[1]);
        int width = Integer.parseInt(rect[2]);
        int height = Integer.parseInt(rect[3]);
        assertTrue(top + height <= image.getHeight(), "the timeline is in the screenshot: " + String.join(",", rect));
        // Each lane starts with a mark in its PE's colour: count the coloured runs down that column.
        int x = left + 1 + Integer.parseInt(attribute(tag, "data-gutter")) - 5;
        int lanes = 0;
        boolean inMark = false;
        for (int y = top + Integer.parseInt(attribute(tag, "data-axis")); y < top + height; y++) {
            boolean coloured = saturated(image.getRGB(x, y));
            lanes += coloured && !inMark ? 1 : 0;
            inMark = coloured;
        }
        assertEquals(JobFixture.NPES, lanes, "lane marks in the screenshot's column x=" + x);
        // and the lanes are not empty: the barrier colour (#d62728) covers a good part of the timeline
        long red = 0;
        for (int y = top; y < top + height; y++) {
            for (int xx = left; xx < left + width; xx++) {
                int rgb = image.getRGB(xx, y) & 0xFFFFFF;
                red += Math.abs((rgb >> 16) - 0xd6) < 12 && Math.abs((rgb >> 8 & 0xFF) - 0x27) < 12 ? 1 : 0;
            }
        }
        assertTrue(red > (long) width * height / 20, red + " barrier-coloured pixels of " + (long) width * height);
    }

    private static boolean saturated(int rgb) {
        int r = rgb >> 16 & 0xFF;
        int g = rgb >> 8 & 0xFF;
        int b = rgb & 0xFF;
        return Math.max(r, Math.max(g, b)) - Math.min(r, Math.min(g, b)) > 80;
    }

    private static String attribute(String tag, String name) {
        Matcher m = Pattern.compile(name + "=\"([^\"]*)\"").matcher(tag);
        assertTrue(m.find(), name + " missing in " + tag);
        return m.group(1);
    }

    private static String between(String s, String from, String to) {
        int a = s.indexOf(from);
        int b = a < 0 ? -1 : s.indexOf(to, a);
        return a < 0 || b < 0 ? "(not found)" : s.substring(a, b + to.length());
    }

    private static String head(String s) {
        return s.substring(0, Math.min(400, s.length()));
    }
}
