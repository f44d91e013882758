import Foundation
import RowKit
import RowKitGraphics

/// The seal `rowkit review` puts on every log it writes: HMAC-SHA256 of the log under a key
/// that only this user's `rowkit review` holds.
///
/// The log lies in the report folder, and the report folder is untrusted: a pull request's
/// CI run makes its own, log included. Undo acts on the log alone, putting back the bytes of
/// the files an accept changed and removing the files it made, so a log written by anyone
/// else could make undo remove or overwrite any file of the references. A log is trusted
/// only when its seal is the one this key makes; any other log is refused whole, and the
/// review of that report starts over once it is moved away.
///
/// The key is 32 random bytes in `$XDG_STATE_HOME/rowkit/review-key` (by default
/// `~/.local/state/rowkit/review-key`), made on the first review, readable by its owner
/// alone, and never read through a link.
struct ReviewLogSeal: Sendable {
  /// The key file's name, in RowKit's state folder.
  static let keyFileName = "review-key"

  private let key: [UInt8]

  /// The seal of the user whose environment is `environment`: its key read, or made when
  /// there is none yet. An error names the key file when it cannot be read or made.
  init(environment: [String: String]) throws {
    let folder = try Self.stateFolder(environment)
    key = try Self.key(in: URL(fileURLWithPath: folder))
  }

  /// RowKit's folder of state kept between runs: `$XDG_STATE_HOME/rowkit`, or
  /// `$HOME/.local/state/rowkit`, as the XDG base directory specification places it.
  static func stateFolder(_ environment: [String: String]) throws -> String {
    if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") { return state + "/rowkit" }
    if let home = environment["HOME"], home.hasPrefix("/") { return home + "/.local/state/rowkit" }
    throw ReviewError("neither XDG_STATE_HOME nor HOME is set to a folder: the review has no place for the key that seals its log")
  }

  /// The seal of `log`: of its JSON in RowKit's one form, without a seal.
  func seal(_ log: ReviewLog) throws -> String {
    var unsealed = log
    unsealed.seal = nil
    return SHA256.hexString(SHA256.authenticationCode(of: try DeterministicJSON.bytes(unsealed), key: key))
  }

  /// Whether `log` carries the seal this key makes.
  func hasSealed(_ log: ReviewLog) -> Bool {
    guard let given = log.seal, let expected = try? seal(log) else { return false }
    return ConstantTime.equal(given, expected)
  }

  /// The key in `folder`, made there when missing.
  ///
  /// The folder and the key must be this user's own and closed to others: a key that
  /// someone else made, or could read or replace, would let them seal a log.
  private static func key(in folder: URL) throws -> [UInt8] {
    let file = folder.appendingPathComponent(keyFileName)
    var info = stat()
    if lstat(folder.path, &info) == 0 {
      guard info.st_mode & S_IFMT == S_IFDIR, info.st_uid == geteuid(), info.st_mode & 0o022 == 0 else {
        throw ReviewError(
          "\(folder.path): not a folder of yours that only you can write (a link, another user's, or writable by others); "
            + "the key that seals review logs is kept only in such a folder")
      }
    }
    if let key = try read(file) { return key }
    do {
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    } catch {
      throw ReviewError("\(folder.path): cannot be made for the key that seals review logs (\(error.localizedDescription))")
    }
    var random = SystemRandomNumberGenerator()
    let key = (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &random) }
    // A new file only: when another review made the key in between, that key is the one.
    let descriptor = open(file.path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else {
      if errno == EEXIST, let key = try read(file) { return key }
      throw ReviewError("\(file.path): cannot be made (\(String(cString: strerror(errno))))")
    }
    let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
    do {
      try handle.write(contentsOf: Data(SHA256.hexString(key).utf8 + [0x0A]))
      try handle.synchronize()
      try handle.close()
    } catch {
      try? FileManager.default.removeItem(at: file)
      throw ReviewError("\(file.path): cannot be written (\(error.localizedDescription))")
    }
    return key
  }

  /// The key in `file`; nil when there is no file.
  private static func read(_ file: URL) throws -> [UInt8]? {
    var info = stat()
    guard lstat(file.path, &info) == 0 else { return nil }
    guard info.st_mode & S_IFMT != S_IFREG || (info.st_uid == geteuid() && info.st_mode & 0o077 == 0) else {
      throw ReviewError("\(file.path): another user's, or open to others (mode \(String(info.st_mode & 0o777, radix: 8))); a key that seals review logs is yours alone: move it away")
    }
    guard info.st_mode & S_IFMT == S_IFREG, info.st_size <= 128, let data = FileManager.default.contents(atPath: file.path) else {
      throw ReviewError("\(file.path): not the key that seals review logs (a regular file of 64 hexadecimal digits); move it away")
    }
    let digits = Array(String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines).utf8)
      .compactMap { byte -> UInt8? in
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        default: return nil
        }
      }
    let key = stride(from: 0, to: digits.count - 1, by: 2).map { digits[$0] << 4 | digits[$0 + 1] }
    guard data.count <= 65, digits.count == 64, key.count == 32, digits.count == data.filter({ $0 > 0x20 }).count else {
      throw ReviewError("\(file.path): not the key that seals review logs (a regular file of 64 hexadecimal digits); move it away")
    }
    return key
  }
}
