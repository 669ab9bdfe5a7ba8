package io.kubeloop.api.selector;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

/**
 * The label selector lexer and recursive-descent parser, behaving as apimachinery's
 * {@code labels.Parse}: the same tokens, whitespace, keywords ({@code in}, {@code notin} are
 * identifiers where a value or key is expected) and error texts, plus the position of the
 * offending token. One instance parses one string; not thread-safe.
 */
final class LabelSelectorParser {

    private enum Tok {
        END,
        CLOSED_PAR,
        COMMA,
        BANG,
        DOUBLE_EQUALS,
        EQUALS,
        GREATER,
        IDENT,
        IN,
        LESS,
        NOT_EQUALS,
        NOT_IN,
        OPEN_PAR
    }

    private record Token(Tok tok, String text, int pos) {}

    private static final String BINARY_OPERATORS = "in, notin, =, ==, !=, gt, lt";

    private final String input;
    private final List<Token> tokens = new ArrayList<>();
    private int next;

    private LabelSelectorParser(String input) {
        this.input = input;
    }

    /** The requirements of {@code input}, in input order. */
    static List<LabelRequirement> parse(String input) {
        LabelSelectorParser p = new LabelSelectorParser(input);
        p.lex();
        return p.parseSelector();
    }

    // ---- lexer ----

    private static boolean isWhitespace(char c) {
        return c == ' ' || c == '\t' || c == '\r' || c == '\n';
    }

    private static boolean isSpecial(char c) {
        return c == '=' || c == '!' || c == '(' || c == ')' || c == ',' || c == '>' || c == '<';
    }

    private void lex() {
        int i = 0;
        int n = input.length();
        while (true) {
            while (i < n && isWhitespace(input.charAt(i))) {
                i++;
            }
            if (i >= n) {
                tokens.add(new Token(Tok.END, "", n));
                return;
            }
            char c = input.charAt(i);
            if (isSpecial(c)) {
                char c2 = i + 1 < n ? input.charAt(i + 1) : 0;
                if ((c == '=' || c == '!') && c2 == '=') {
                    tokens.add(new Token(c == '=' ? Tok.DOUBLE_EQUALS : Tok.NOT_EQUALS, input.substring(i, i + 2), i));
                    i += 2;
                } else {
                    Tok t = switch (c) {
                        case '=' -> Tok.EQUALS;
                        case '!' -> Tok.BANG;
                        case '(' -> Tok.OPEN_PAR;
                        case ')' -> Tok.CLOSED_PAR;
                        case ',' -> Tok.COMMA;
                        case '>' -> Tok.GREATER;
                        default -> Tok.LESS;
                    };
                    tokens.add(new Token(t, String.valueOf(c), i));
                    i++;
                }
            } else {
                int start = i;
                while (i < n && !isSpecial(input.charAt(i)) && !isWhitespace(input.charAt(i))) {
                    i++;
                }
                String word = input.substring(start, i);
                Tok t = switch (word) {
                    case "in" -> Tok.IN;
                    case "notin" -> Tok.NOT_IN;
                    default -> Tok.IDENT;
                };
                tokens.add(new Token(t, word, start));
            }
        }
    }

    // ---- parser ----

    /** The next token; where a value or key is expected, the keywords are identifiers. */
    private Token peek(boolean valueContext) {
        return asContext(tokens.get(next), valueContext);
    }

    private Token consume(boolean valueContext) {
        return asContext(tokens.get(next++), valueContext);
    }

    private static Token asContext(Token t, boolean valueContext) {
        return valueContext && (t.tok() == Tok.IN || t.tok() == Tok.NOT_IN)
                ? new Token(Tok.IDENT, t.text(), t.pos())
                : t;
    }

    private SelectorParseException error(String problem, Token at) {
        return new SelectorParseException(problem, input, at.pos());
    }

    private SelectorParseException requirementError(String problem, Token at) {
        return error("unable to parse requirement: " + problem, at);
    }

    private List<LabelRequirement> parseSelector() {
        List<LabelRequirement> out = new ArrayList<>();
        while (true) {
            Token t = peek(true);
            switch (t.tok()) {
                case IDENT, BANG -> {
                    out.add(parseRequirement());
                    Token after = consume(true);
                    if (after.tok() == Tok.END) {
                        return out;
                    }
                    if (after.tok() != Tok.COMMA) {
                        throw error("found '" + after.text() + "', expected: ',' or 'end of string'", after);
                    }
                    Token t2 = peek(true);
                    if (t2.tok() != Tok.IDENT && t2.tok() != Tok.BANG) {
                        throw error("found '" + t2.text() + "', expected: identifier after ','", t2);
                    }
                }
                case END -> {
                    return out;
                }
                default -> throw error("found '" + t.text() + "', expected: !, identifier, or 'end of string'", t);
            }
        }
    }

    private LabelRequirement parseRequirement() {
        boolean bang = false;
        Token keyToken = consume(true);
        if (keyToken.tok() == Tok.BANG) {
            bang = true;
            keyToken = consume(true);
        }
        if (keyToken.tok() != Tok.IDENT) {
            throw requirementError("found '" + keyToken.text() + "', expected: identifier", keyToken);
        }
        String key = keyToken.text();
        String keyProblem = LabelValidation.checkKey(key);
        if (keyProblem != null) {
            throw requirementError("invalid label key \"" + key + "\": " + keyProblem, keyToken);
        }
        Token look = peek(true);
        if (bang) {
            return new LabelRequirement(key, LabelOperator.DOES_NOT_EXIST, List.of());
        }
        if (look.tok() == Tok.END || look.tok() == Tok.COMMA) {
            return new LabelRequirement(key, LabelOperator.EXISTS, List.of());
        }
        Token opToken = consume(false);
        LabelOperator op = switch (opToken.tok()) {
            case IN -> LabelOperator.IN;
            case NOT_IN -> LabelOperator.NOT_IN;
            case EQUALS -> LabelOperator.EQUALS;
            case DOUBLE_EQUALS -> LabelOperator.DOUBLE_EQUALS;
            case NOT_EQUALS -> LabelOperator.NOT_EQUALS;
            case GREATER -> LabelOperator.GREATER_THAN;
            case LESS -> LabelOperator.LESS_THAN;
            default -> throw requirementError("found '" + opToken.text() + "', expected: " + BINARY_OPERATORS, opToken);
        };
        List<String> values =
                op == LabelOperator.IN || op == LabelOperator.NOT_IN ? parseValueSet() : parseExactValue(op);
        return new LabelRequirement(key, op, values);
    }

    private List<String> parseValueSet() {
        Token open = consume(true);
        if (open.tok() != Tok.OPEN_PAR) {
            throw requirementError("found '" + open.text() + "' expected: '('", open);
        }
        Token look = peek(true);
        switch (look.tok()) {
            case IDENT, COMMA -> {
                return parseIdentifierList();
            }
            case CLOSED_PAR -> {
                consume(true);
                return List.of("");
            }
            default -> throw requirementError("found '" + look.text() + "', expected: ',', ')' or identifier", look);
        }
    }

    /** The values up to and including ')'; empty entries ({@code (,a)}, {@code (a,)}) are the empty string. */
    private List<String> parseIdentifierList() {
        TreeSet<String> values = new TreeSet<>();
        while (true) {
            Token t = consume(true);
            switch (t.tok()) {
                case IDENT -> {
                    checkValue(t);
                    values.add(t.text());
                    Token after = peek(true);
                    if (after.tok() == Tok.CLOSED_PAR) {
                        consume(true);
                        return List.copyOf(values);
                    }
                    if (after.tok() != Tok.COMMA) {
                        throw requirementError("found '" + after.text() + "', expected: ',' or ')'", after);
                    }
                }
                case COMMA -> {
                    if (values.isEmpty()) {
                        values.add("");
                    }
                    Token after = peek(true);
                    if (after.tok() == Tok.CLOSED_PAR) {
                        values.add("");
                        consume(true);
                        return List.copyOf(values);
                    }
                    if (after.tok() == Tok.COMMA) {
                        values.add("");
                    }
                }
                default -> throw requirementError("found '" + t.text() + "', expected: ',', or identifier", t);
            }
        }
    }

    private List<String> parseExactValue(LabelOperator op) {
        Token look = peek(true);
        String value;
        if (look.tok() == Tok.END || look.tok() == Tok.COMMA) {
            value = "";
        } else {
            Token t = consume(true);
            if (t.tok() != Tok.IDENT) {
                throw requirementError("found '" + t.text() + "', expected: identifier", t);
            }
            checkValue(t);
            value = t.text();
        }
        if ((op == LabelOperator.GREATER_THAN || op == LabelOperator.LESS_THAN)
                && LabelRequirement.parseLong(value) == null) {
            throw requirementError(
                    "for 'Gt', 'Lt' operators, the value must be an integer, found '" + value + "'", look);
        }
        return List.of(value);
    }

    private void checkValue(Token t) {
        String problem = LabelValidation.checkValue(t.text());
        if (problem != null) {
            throw requirementError("invalid label value \"" + t.text() + "\": " + problem, t);
        }
    }
}
