package io.kubeloop.api.selector;

/**
 * Label key and value syntax, as apimachinery's {@code validation.IsQualifiedName} and
 * {@code IsValidLabelValue}; hand-written character checks rather than regular expressions because
 * selectors are parsed on hot paths. Stateless.
 */
final class LabelValidation {

    static final int MAX_NAME_LENGTH = 63;
    static final int MAX_PREFIX_LENGTH = 253;

    private static final String NAME_RULE = "must consist of alphanumeric characters, '-', '_' or '.', "
            + "and must start and end with an alphanumeric character";

    private LabelValidation() {}

    /** Null when {@code key} is a valid label key, else what is wrong with it. */
    static String checkKey(String key) {
        int slash = key.indexOf('/');
        String name = key;
        if (slash >= 0) {
            if (key.indexOf('/', slash + 1) >= 0) {
                return "a qualified name " + NAME_RULE + ", with an optional DNS subdomain prefix and '/'"
                        + " (e.g. 'example.com/MyName')";
            }
            String prefix = key.substring(0, slash);
            name = key.substring(slash + 1);
            if (prefix.isEmpty()) {
                return "prefix part must be non-empty";
            }
            if (prefix.length() > MAX_PREFIX_LENGTH) {
                return "prefix part must be no more than " + MAX_PREFIX_LENGTH + " characters";
            }
            if (!isDnsSubdomain(prefix)) {
                return "prefix part a lowercase RFC 1123 subdomain must consist of lower case alphanumeric "
                        + "characters, '-' or '.', and must start and end with an alphanumeric character";
            }
        }
        if (name.isEmpty()) {
            return "name part must be non-empty";
        }
        if (name.length() > MAX_NAME_LENGTH) {
            return "name part must be no more than " + MAX_NAME_LENGTH + " characters";
        }
        if (!isNameChars(name)) {
            return "name part " + NAME_RULE;
        }
        return null;
    }

    /** Null when {@code value} is a valid label value (possibly empty), else what is wrong with it. */
    static String checkValue(String value) {
        if (value.length() > MAX_NAME_LENGTH) {
            return "must be no more than " + MAX_NAME_LENGTH + " characters";
        }
        if (!value.isEmpty() && !isNameChars(value)) {
            return "a valid label must be an empty string or " + NAME_RULE;
        }
        return null;
    }

    /** {@code [A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?}, non-empty. */
    private static boolean isNameChars(String s) {
        if (!isAlnum(s.charAt(0)) || !isAlnum(s.charAt(s.length() - 1))) {
            return false;
        }
        for (int i = 1; i < s.length() - 1; i++) {
            char c = s.charAt(i);
            if (!isAlnum(c) && c != '-' && c != '_' && c != '.') {
                return false;
            }
        }
        return true;
    }

    /** RFC 1123 subdomain: dot-separated labels of {@code [a-z0-9]([-a-z0-9]*[a-z0-9])?}. */
    private static boolean isDnsSubdomain(String s) {
        int start = 0;
        while (true) {
            int dot = s.indexOf('.', start);
            int end = dot < 0 ? s.length() : dot;
            if (end == start || !isLowerAlnum(s.charAt(start)) || !isLowerAlnum(s.charAt(end - 1))) {
                return false;
            }
            for (int i = start + 1; i < end - 1; i++) {
                char c = s.charAt(i);
                if (!isLowerAlnum(c) && c != '-') {
                    return false;
                }
            }
            if (dot < 0) {
                return true;
            }
            start = dot + 1;
        }
    }

    private static boolean isAlnum(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
    }

    private static boolean isLowerAlnum(char c) {
        return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
    }
}
