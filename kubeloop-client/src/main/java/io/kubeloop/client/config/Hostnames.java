package io.kubeloop.client.config;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.security.cert.CertificateException;
import java.security.cert.CertificateParsingException;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Checks a server certificate against the name the client meant to reach, with Go's
 * {@code crypto/x509} rules (which client-go and kubectl apply): an IP address matches only IP
 * subject alternative names; a DNS name matches DNS SANs case-insensitively, ignoring a trailing
 * dot, where {@code *.example.com} matches exactly one leftmost label; the subject's common name is
 * ignored.
 *
 * <p>Stateless and thread-safe.
 */
final class Hostnames {

    private static final int SAN_DNS = 2;
    private static final int SAN_IP = 7;
    private static final Pattern IPV4 = Pattern.compile("\\d{1,3}(\\.\\d{1,3}){3}");

    private Hostnames() {}

    /**
     * Throws unless {@code cert} is valid for {@code host}.
     *
     * @param host a DNS name or an IP literal (IPv6 optionally in brackets)
     */
    static void verify(X509Certificate cert, String host) throws CertificateException {
        String name = host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
        Collection<List<?>> sans;
        try {
            sans = cert.getSubjectAlternativeNames();
        } catch (CertificateParsingException e) {
            throw new CertificateException("cannot read the server certificate's subject alternative names", e);
        }
        List<String> offered = new ArrayList<>();
        InetAddress ip = ipLiteral(name);
        if (sans != null) {
            for (List<?> san : sans) {
                int type = (Integer) san.get(0);
                String value = String.valueOf(san.get(1));
                if (type == SAN_IP) {
                    offered.add(value);
                    if (ip != null && ip.equals(ipLiteral(value))) {
                        return;
                    }
                } else if (type == SAN_DNS) {
                    offered.add(value);
                    if (ip == null && dnsMatches(value, name)) {
                        return;
                    }
                }
            }
        }
        throw new CertificateException(
                offered.isEmpty()
                        ? "server certificate has no subject alternative names, so it is not valid for " + host
                        : "server certificate is valid for " + String.join(", ", offered) + ", not " + host);
    }

    /** Whether a DNS SAN pattern matches a host name (Go's {@code matchHostnames}). */
    static boolean dnsMatches(String pattern, String host) {
        String p = trimDot(pattern.toLowerCase(Locale.ROOT));
        String h = trimDot(host.toLowerCase(Locale.ROOT));
        if (p.isEmpty() || h.isEmpty()) {
            return false;
        }
        String[] pl = p.split("\\.", -1);
        String[] hl = h.split("\\.", -1);
        if (pl.length != hl.length) {
            return false;
        }
        for (int i = 0; i < pl.length; i++) {
            if (i == 0 && pl[i].equals("*") && pl.length > 2 && !hl[i].isEmpty()) {
                continue;
            }
            if (!pl[i].equals(hl[i])) {
                return false;
            }
        }
        return true;
    }

    /** The address when {@code text} is an IPv4 or IPv6 literal, else null; never resolves names. */
    static InetAddress ipLiteral(String text) {
        if (!IPV4.matcher(text).matches() && text.indexOf(':') < 0) {
            return null;
        }
        try {
            return InetAddress.getByName(text);
        } catch (UnknownHostException | SecurityException e) {
            return null;
        }
    }

    private static String trimDot(String s) {
        return s.endsWith(".") ? s.substring(0, s.length() - 1) : s;
    }
}
