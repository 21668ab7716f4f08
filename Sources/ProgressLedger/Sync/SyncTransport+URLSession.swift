import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A URL the transport could not make from a request's text.
struct BadURL: Error, CustomStringConvertible {
    var text: String
    var description: String { "not a URL: \(text)" }
}

extension SyncClient {
    /// The transport over `session` (`URLSession.shared` by default).
    public static func urlSession(_ session: URLSession = .shared) -> SyncTransport {
        { request in
            guard let url = URL(string: request.url) else { throw BadURL(text: request.url) }
            var urlRequest = URLRequest(url: url)
            urlRequest.httpMethod = request.method
            for (name, value) in request.headers { urlRequest.setValue(value, forHTTPHeaderField: name) }
            if !request.body.isEmpty { urlRequest.httpBody = Data(request.body) }
            let (data, response) = try await session.data(for: urlRequest)
            guard let http = response as? HTTPURLResponse else { throw URLError(.badServerResponse) }
            var headers: [String: String] = [:]   // not a format string: HTTP header fields
            for (name, value) in http.allHeaderFields {
                if let name = name as? String, let value = value as? String { headers[name.lowercased()] = value }
            }
            return SyncResponse(status: http.statusCode, headers: headers, body: Array(data))
        }
    }
}
