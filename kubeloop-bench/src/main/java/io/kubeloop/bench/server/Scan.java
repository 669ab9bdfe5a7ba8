package io.kubeloop.bench.server;

/**
 * Cheap scans of one watch event or response body without a JSON parse, so that the driver's cost
 * per event is tiny and the same for every server: the first {@code "resourceVersion":"N"} (the
 * object's: ConfigMaps carry no other), and plain substring tests. Stateless.
 */
final class Scan {

    private static final String RV = "\"resourceVersion\":\"";

    private Scan() {}

    /** The first {@code "resourceVersion":"N"} of {@code s} as a number, or -1 when there is none. */
    static long resourceVersion(CharSequence s) {
        int i = indexOf(s, RV);
        if (i < 0) {
            return -1;
        }
        long v = 0;
        int digits = 0;
        for (int j = i + RV.length(); j < s.length(); j++) {
            char c = s.charAt(j);
            if (c < '0' || c > '9') {
                break;
            }
            v = v * 10 + (c - '0');
            digits++;
        }
        return digits == 0 ? -1 : v;
    }

    /** Whether {@code s} contains {@code needle}. */
    static boolean contains(CharSequence s, String needle) {
        return indexOf(s, needle) >= 0;
    }

    private static int indexOf(CharSequence s, String needle) {
        if (s instanceof String str) {
            return str.indexOf(needle);
        }
        int n = needle.length();
        char first = needle.charAt(0);
        outer:
        for (int i = 0, last = s.length() - n; i <= last; i++) {
            if (s.charAt(i) != first) {
                continue;
            }
            for (int k = 1; k < n; k++) {
                if (s.charAt(i + k) != needle.charAt(k)) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }
}
