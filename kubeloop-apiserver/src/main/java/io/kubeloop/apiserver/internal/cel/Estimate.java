package io.kubeloop.apiserver.internal.cel;

/**
 * A range of estimated sizes or costs, as CEL's static cost estimation counts them: {@code min} and
 * {@code max} are <em>unsigned</em> 64-bit values, and every operation saturates at the largest one
 * ({@link #UNKNOWN}'s max, {@code 2^64 - 1}) instead of overflowing. A size is what CEL's
 * {@code size()} returns (characters of a string, bytes, list items, map entries); a cost is in CEL's
 * cost units (one per identifier, selection or simple call; a tenth per traversed character).
 *
 * @param min the least size or cost, unsigned
 * @param max the greatest size or cost, unsigned
 */
record Estimate(long min, long max) {

    /** The largest unsigned value, {@code 2^64 - 1}. */
    static final long MAX = -1L;

    /** Nothing known: {@code [0, 2^64 - 1]}. */
    static final Estimate UNKNOWN = new Estimate(0, MAX);

    /** Zero. */
    static final Estimate ZERO = new Estimate(0, 0);

    private static final double TWO_TO_64 = Math.scalb(1.0, 64);

    /** {@code [n, n]}. */
    static Estimate fixed(long n) {
        return new Estimate(n, n);
    }

    /** The sum, saturating. */
    Estimate add(Estimate o) {
        return new Estimate(add(min, o.min), add(max, o.max));
    }

    /** The product, saturating. */
    Estimate multiply(Estimate o) {
        return new Estimate(multiply(min, o.min), multiply(max, o.max));
    }

    /** Both ends times {@code factor}, rounded up, saturating. */
    Estimate multiplyByFactor(double factor) {
        return new Estimate(multiplyByFactor(min, factor), multiplyByFactor(max, factor));
    }

    /** The smallest range holding both. */
    Estimate union(Estimate o) {
        return new Estimate(
                Long.compareUnsigned(o.min, min) < 0 ? o.min : min, Long.compareUnsigned(o.max, max) > 0 ? o.max : max);
    }

    /** {@code x + y}, or {@link #MAX} past it. */
    static long add(long x, long y) {
        long sum = x + y;
        return Long.compareUnsigned(sum, x) < 0 ? MAX : sum;
    }

    /** {@code x * y}, or {@link #MAX} past it. */
    static long multiply(long x, long y) {
        if (y != 0 && Long.compareUnsigned(x, Long.divideUnsigned(MAX, y)) > 0) {
            return MAX;
        }
        return x * y;
    }

    /** {@code ceil(x * factor)}, or {@link #MAX} past it. */
    static long multiplyByFactor(long x, double factor) {
        double xd = toDouble(x);
        if (xd > 0 && factor > 0 && xd > TWO_TO_64 / factor) {
            return MAX;
        }
        double ceil = Math.ceil(xd * factor);
        if (ceil >= TWO_TO_64) {
            return MAX;
        }
        return fromDouble(ceil);
    }

    /** The unsigned value as a double. */
    static double toDouble(long unsigned) {
        if (unsigned >= 0) {
            return unsigned;
        }
        return ((unsigned >>> 1) | (unsigned & 1)) * 2.0;
    }

    /** A non-negative double below {@code 2^64} as an unsigned value. */
    private static long fromDouble(double d) {
        if (d < 0x1p63) {
            return (long) d;
        }
        return (long) (d - 0x1p63) + Long.MIN_VALUE;
    }

    @Override
    public String toString() {
        return "[" + Long.toUnsignedString(min) + ", " + Long.toUnsignedString(max) + "]";
    }
}
