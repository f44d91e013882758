import Foundation
import RowKit

/// `review-log.json` in a report folder: every accept, reject and undo of `rowkit review`,
/// in order. The review state of each case, and what undo does next, are read from it alone,
/// so both survive a reload of the page and a restart of the server.
public struct ReviewLog: Codable, Hashable, Sendable {
  /// What a reviewer did.
  public enum Action: String, Codable, Hashable, Sendable {
    /// The actual images became the references.
    case accept
    /// The references stay; the cases are marked reviewed.
    case reject
    /// An earlier accept or reject was taken back.
    case undo
  }

  /// One file of the references folder that an action changed.
  public struct FileChange: Codable, Hashable, Sendable {
    /// The case the file belongs to; none for the references' `environment.json`.
    public var `case`: String?
    /// The file, relative to the references folder.
    public var path: String
    /// SHA-256 of the file's bytes before the action; none when there was no file.
    public var before: String?
    /// SHA-256 of the file's bytes after the action; none when there is no file.
    public var after: String?
    /// Where the bytes before the action are kept, relative to the report folder
    /// (`review-undo/3-9f2c….bytes`); none when there was no file.
    public var saved: String?
    /// Where in `saved` they are, `[offset, length]`: one file holds the bytes of all the
    /// files an action changed. None when `saved` holds this file's bytes alone (a file
    /// each, as logs written before kept them).
    public var savedRange: [Int]?
  }

  /// One action.
  public struct Entry: Codable, Hashable, Sendable {
    /// The entry's number, from 1, in the order of the log.
    public var id: Int
    /// When it was done, in ISO 8601 (UTC).
    public var time: String
    /// What was done.
    public var action: Action
    /// The cases it named (for an undo, those of the action it took back).
    public var cases: [String]
    /// The group it was done on, by title, when it was done on a group.
    public var group: String?
    /// The entry an undo took back.
    public var undoes: Int?
    /// The files it changed.
    public var files: [FileChange]
    /// The folders of the references an accept made, relative to the references folder,
    /// outermost first: undo removes them again once they are empty, and no other.
    public var madeFolders: [String]?
  }

  /// The log's form.
  public var version = 1
  /// SHA-256 of the `report.json` the log reviews: a log is refused beside another report,
  /// whose cases and files its entries do not describe. None in a log written before it was
  /// recorded, which is taken as the report's own.
  public var report: String?
  /// The actions, oldest first.
  public var entries: [Entry] = []
  /// HMAC-SHA256 of the log without it, under the key of the user whose `rowkit review`
  /// wrote it (`ReviewLogSeal`): a log without this user's seal is refused, since undo would
  /// act on whatever it says.
  public var seal: String?

  /// An empty log.
  public init() {}

  /// The entries that are in force: accepts and rejects that no undo has taken back.
  public var standing: [Entry] {
    let undone = Set(entries.compactMap(\.undoes))
    return entries.filter { $0.action != .undo && !undone.contains($0.id) }
  }

  /// The action the next undo takes back: the latest one in force.
  public var nextUndo: Entry? { standing.last }

  /// Each case's review: the latest action in force that named it.
  public var reviews: [String: Action] {
    var reviews: [String: Action] = [:]
    for entry in standing {
      for name in entry.cases { reviews[name] = entry.action }
    }
    return reviews
  }

  /// The log in `file`, nil when there is none; an error naming the file when it is not a
  /// log. Its seal is not checked here: see `ReviewLogSeal`.
  public static func read(_ file: URL) throws -> ReviewLog? {
    var info = stat()
    guard lstat(file.path, &info) == 0 else { return nil }
    guard info.st_mode & S_IFMT == S_IFREG else {
      throw ReviewError("\(file.path): not a regular file; the review log is never read through a link")
    }
    guard let data = FileManager.default.contents(atPath: file.path) else { throw ReviewError("\(file.path): cannot be read") }
    do {
      let log = try JSONDecoder().decode(ReviewLog.self, from: data)
      guard log.version == 1 else { throw ReviewError("\(file.path): a review log of version \(log.version), not 1") }
      for (index, entry) in log.entries.enumerated() where entry.id != index + 1 {
        throw ReviewError("\(file.path): entries[\(index)]: its id is \(entry.id), not \(index + 1)")
      }
      return log
    } catch let error as ReviewError {
      throw error
    } catch {
      throw ReviewError("\(file.path): not a review log: \(DocumentError.decodingProblem(error, in: [UInt8](data)))")
    }
  }
}

/// A refused review request or a broken review log: the message names the file or the case.
public struct ReviewError: Error, CustomStringConvertible, Sendable {
  /// The message.
  public var description: String
  /// HTTP's status for it: 400 for a bad request, 404 for an unknown case, 409 when the
  /// files changed under the review.
  public var status: Int

  /// An error with `description`.
  public init(_ description: String, status: Int = 400) {
    self.description = description
    self.status = status
  }
}
