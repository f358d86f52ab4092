import Foundation
import Testing

@testable import Magpie

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

@Suite("Redirect rules")
struct RedirectRulesTests {
  func response(_ status: Int, from url: String, location: String?) -> HTTPURLResponse {
    HTTPURLResponse(
      url: URL(string: url)!, statusCode: status, httpVersion: "HTTP/1.1",
      headerFields: location.map { ["Location": $0] } ?? [:])!
  }

  func next(_ status: Int, from url: String, location: String?, request: URLRequest? = nil) -> URLRequest? {
    let request = request ?? URLRequest(url: URL(string: url)!)
    guard
      case .success(let next)? = RedirectRules.nextRequest(
        after: response(status, from: url, location: location), to: request)
    else { return nil }
    return next
  }

  @Test("A relative Location resolves against the current URL")
  func relative() {
    #expect(
      next(302, from: "https://a.example/x/y.png", location: "z.png")?.url?.absoluteString
        == "https://a.example/x/z.png")
    #expect(
      next(301, from: "https://a.example/x/y.png", location: "/top.png")?.url?.absoluteString
        == "https://a.example/top.png")
    #expect(
      next(308, from: "https://a.example/x", location: "//cdn.example/i.png")?.url?.absoluteString
        == "https://cdn.example/i.png")
  }

  @Test("Only redirect statuses with a Location lead anywhere")
  func notRedirects() {
    #expect(next(200, from: "https://a.example/", location: "/b") == nil)
    #expect(next(300, from: "https://a.example/", location: "/b") == nil)
    #expect(next(304, from: "https://a.example/", location: "/b") == nil)
    #expect(next(302, from: "https://a.example/", location: nil) == nil)
  }

  @Test("303, and 301/302 after a POST, become a GET without body")
  func methodChanges() {
    var post = URLRequest(url: URL(string: "https://a.example/form")!)
    post.httpMethod = "POST"
    post.httpBody = Data("x=1".utf8)
    post.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
    for status in [301, 302, 303] {
      let request = next(status, from: "https://a.example/form", location: "/done", request: post)
      #expect(request?.httpMethod == "GET")
      #expect(request?.httpBody == nil)
      #expect(request?.value(forHTTPHeaderField: "Content-Type") == nil)
    }
    #expect(next(307, from: "https://a.example/form", location: "/again", request: post)?.httpMethod == "POST")
  }

  @Test("Credentials and cookies stay with their origin")
  func crossOrigin() {
    var request = URLRequest(url: URL(string: "https://a.example/i.png")!)
    request.setValue("Bearer t", forHTTPHeaderField: "Authorization")
    request.setValue("s=1", forHTTPHeaderField: "Cookie")
    request.setValue("kept", forHTTPHeaderField: "X-Other")
    let same = next(302, from: "https://a.example/i.png", location: "/j.png", request: request)
    #expect(same?.value(forHTTPHeaderField: "Authorization") == "Bearer t")
    for location in ["https://b.example/i.png", "http://a.example/i.png", "https://a.example:8443/i.png"] {
      let other = next(302, from: "https://a.example/i.png", location: location, request: request)
      #expect(other?.value(forHTTPHeaderField: "Authorization") == nil, "\(location)")
      #expect(other?.value(forHTTPHeaderField: "Cookie") == nil, "\(location)")
      #expect(other?.value(forHTTPHeaderField: "X-Other") == "kept", "\(location)")
    }
  }

  @Test("A Location outside http(s) is an error")
  func otherScheme() {
    let result = RedirectRules.nextRequest(
      after: response(302, from: "https://a.example/", location: "file:///etc/passwd"),
      to: URLRequest(url: URL(string: "https://a.example/")!))
    guard case .failure(let error)? = result else {
      Issue.record("expected a failure")
      return
    }
    #expect(error.code == .invalidResponse)
  }
}
