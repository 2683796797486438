import { firstMatch } from './readings.ts';
import type { AttackMatcher } from './types.ts';

/** PHP serialize() objects: `O:8:"stdClass":1:{…}`, `C:…` custom objects (`O:+8:` too). */
const PHP_OBJECT = /(?:^|[^a-z0-9])[OC]:\+?\d{1,6}:"[a-z_\\][\w\\]{0,255}":\d{1,6}:\{/i;

/**
 * Java serialisation (stream magic AC ED 00 05 as base64 `rO0AB` or hex), and the gadget classes that
 * JSON and XML binders are tricked into building (fastjson's `@type`, XStream, Jackson).
 */
const JAVA =
  /\brO0AB|\baced0005|(?:java\.lang\.(?:Runtime|ProcessBuilder)|javax\.naming\.InitialContext|com\.sun\.rowset\.JdbcRowSetImpl|org\.apache\.commons\.collections\d?\.functors|org\.springframework\.beans\.factory\.config\.PropertyPathFactoryBean|com\.mchange\.v2\.c3p0|org\.codehaus\.groovy\.runtime\.MethodClosure|com\.sun\.org\.apache\.xalan\.internal\.xsltc\.trax\.TemplatesImpl|bsh\.Interpreter|ysoserial)/;

/** .NET: BinaryFormatter's base64 header, and the gadget types of Json.NET `$type` and XAML payloads. */
const DOTNET =
  /AAEAAAD\/{5}|System\.Windows\.Data\.ObjectDataProvider|System\.Diagnostics\.Process\b|System\.Management\.Automation|System\.Configuration\.Install\.AssemblyInstaller|System\.Activities\.Presentation\.WorkflowDesigner|System\.Security\.Principal\.WindowsIdentity|System\.Web\.UI\.ObjectStateFormatter|TypeConfuseDelegate|System\.Data\.Services\.Internal\.ExpandedWrapper/;

/** YAML and pickle constructors that run code (Python, Ruby). */
const SCRIPTING =
  /!!python\/(?:object|apply|name)|!ruby\/(?:object|hash|struct)|\bc(?:posix|os|subprocess|__builtin__|builtins)\n(?:system|popen|check_output|eval|exec)\b/;

/** Deserialisation: a PHP object, Java or .NET serialised data or gadget, or a code-running YAML/pickle tag. */
export const deserialization: AttackMatcher = (value) =>
  firstMatch(
    value,
    (reading) =>
      (PHP_OBJECT.exec(reading) ??
        JAVA.exec(reading) ??
        DOTNET.exec(reading) ??
        SCRIPTING.exec(reading))?.[0],
  );
