package io.kubeloop.apiserver.internal.schema;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.Base64;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The string formats kubeloop checks, a subset of the ones Kubernetes keeps from go-openapi's
 * registry: {@code date-time}, {@code date}, {@code byte}, {@code uuid}, {@code ipv4},
 * {@code ipv6}, {@code hostname}. Other formats are accepted unchecked, as unknown formats are by
 * the real server. Stateless.
 */
public final class Formats {

    private static final Pattern UUID =
            Pattern.compile("^[0-9a-fA-F]{8}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{12}$");
    private static final Pattern IPV4 =
            Pattern.compile("^((25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)\\.){3}(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)$");
    private static final Pattern HOSTNAME = Pattern.compile(
            "^([a-zA-Z0-9]([a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)(\\.[a-zA-Z0-9]([a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*\\.?$");

    private Formats() {}

    /** The format name when {@code value} violates it, empty when it conforms or the format is unchecked. */
    static Optional<String> check(String format, String value) {
        boolean ok = switch (format) {
            case "date-time", "datetime" -> dateTime(value);
            case "date" -> date(value);
            case "byte" -> base64(value);
            case "uuid" -> UUID.matcher(value).matches();
            case "ipv4" -> ipv4(value);
            case "ipv6" -> ipv6(value);
            case "hostname" -> value.length() <= 255 && HOSTNAME.matcher(value).matches();
            default -> true;
        };
        return ok ? Optional.empty() : Optional.of(format);
    }

    private static boolean dateTime(String v) {
        try {
            OffsetDateTime.parse(v.replace(' ', 'T'));
            return true;
        } catch (DateTimeParseException e) {
            return false;
        }
    }

    private static boolean date(String v) {
        try {
            LocalDate.parse(v);
            return true;
        } catch (DateTimeParseException e) {
            return false;
        }
    }

    private static boolean base64(String v) {
        try {
            Base64.getDecoder().decode(v);
            return true;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    /** A dotted-quad IPv4 address without leading zeros. */
    public static boolean ipv4(String v) {
        return IPV4.matcher(v).matches();
    }

    /** An IPv6 address (an embedded IPv4 tail allowed), without a zone. */
    public static boolean ipv6(String v) {
        // only hex digits, colons and dots: getByName then parses a literal and never resolves a name
        if (!v.contains(":") || !v.matches("[0-9a-fA-F:.]+")) {
            return false;
        }
        try {
            return InetAddress.getByName(v) instanceof Inet6Address;
        } catch (UnknownHostException e) {
            return false;
        }
    }
}
