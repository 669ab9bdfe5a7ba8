package io.kubeloop.apiserver.internal.registry;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * How a resource's object names are validated (apimachinery's {@code validation.go}), with the real
 * server's messages.
 *
 * <p>Thread-safe (enum).
 */
public enum NameRule {
    /** DNS-1123 subdomain, at most 253 characters: most kinds, custom resources and CRDs. */
    SUBDOMAIN,
    /** DNS-1123 label, at most 63 characters: Namespaces. */
    LABEL,
    /** DNS-1035 label (starts with a letter), at most 63 characters: Services. */
    DNS1035,
    /** Path segment: anything but {@code .}, {@code ..}, {@code /} and {@code %} (RBAC). */
    PATH_SEGMENT;

    private static final String LABEL_FMT = "[a-z0-9]([-a-z0-9]*[a-z0-9])?";
    private static final Pattern LABEL_RE = Pattern.compile(LABEL_FMT);
    private static final String SUBDOMAIN_FMT = LABEL_FMT + "(\\." + LABEL_FMT + ")*";
    private static final Pattern SUBDOMAIN_RE = Pattern.compile(SUBDOMAIN_FMT);
    private static final String DNS1035_FMT = "[a-z]([-a-z0-9]*[a-z0-9])?";
    private static final Pattern DNS1035_RE = Pattern.compile(DNS1035_FMT);

    /** The problems with {@code name} (empty when valid), worded as the API server words them. */
    public List<String> validate(String name) {
        List<String> errs = new ArrayList<>();
        switch (this) {
            case SUBDOMAIN -> {
                if (name.length() > 253) {
                    errs.add("must be no more than 253 characters");
                }
                if (!SUBDOMAIN_RE.matcher(name).matches()) {
                    errs.add(
                            "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or "
                                    + "'.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used "
                                    + "for validation is '" + SUBDOMAIN_FMT + "')");
                }
            }
            case LABEL -> {
                if (name.length() > 63) {
                    errs.add("must be no more than 63 characters");
                }
                if (!LABEL_RE.matcher(name).matches()) {
                    errs.add(
                            "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and "
                                    + "must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used "
                                    + "for validation is '" + LABEL_FMT + "')");
                }
            }
            case DNS1035 -> {
                if (name.length() > 63) {
                    errs.add("must be no more than 63 characters");
                }
                if (!DNS1035_RE.matcher(name).matches()) {
                    errs.add(
                            "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an "
                                    + "alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', "
                                    + "regex used for validation is '" + DNS1035_FMT + "')");
                }
            }
            case PATH_SEGMENT -> {
                if (name.equals(".") || name.equals("..")) {
                    errs.add("may not be '" + name + "'");
                }
                if (name.contains("/") || name.contains("%")) {
                    errs.add("may not contain '/' or '%'");
                }
            }
        }
        return errs;
    }

    /** Validation of a generateName prefix: the rule applied to the prefix without a trailing '-'. */
    public List<String> validatePrefix(String prefix) {
        String p = prefix.endsWith("-") ? prefix.substring(0, prefix.length() - 1) : prefix;
        return p.isEmpty() ? List.of() : validate(p);
    }
}
