package io.kubeloop.api.json;

/** Plain JSON integers read straight from a {@link BytesInput}'s bytes. Stateless. */
final class BytesIntegers {

    private BytesIntegers() {}

    /**
     * The integer at {@code pos} in [min, max]; moves past it. Anything but plain JSON integer syntax (a
     * fraction, an exponent, a leading zero, more than 18 digits) falls back: Jackson's coercion rules or its
     * error. Whatever follows the digits is checked by the caller's next step (a comma or a closing bracket).
     */
    static long read(BytesInput in, long min, long max) {
        byte[] b = in.b;
        int end = in.end;
        int i = in.pos;
        boolean negative = i < end && b[i] == '-';
        if (negative) {
            i++;
        }
        int first = i;
        long v = 0;
        for (; i < end; i++) {
            byte c = b[i];
            if (c < '0' || c > '9') {
                break;
            }
            v = v * 10 + (c - '0');
        }
        int digits = i - first;
        if (digits == 0 || digits > 18 || (digits > 1 && b[first] == '0')) {
            throw BytesInput.fallback(); // no number, one that may overflow, or not JSON: Jackson decides
        }
        if (i < end && (b[i] == '.' || b[i] == 'e' || b[i] == 'E')) {
            throw BytesInput.fallback(); // a fraction or an exponent: Jackson's coercion rules
        }
        v = negative ? -v : v;
        if (v < min || v > max) {
            throw BytesInput.fallback();
        }
        in.pos = i;
        return v;
    }
}
